// `filefrag -e -b1 <paths…>` (e2fsprogs: the kernel's FIEMAP, one line per extent, sizes in bytes):
// per path, the extents the kernel flags `shared` (a reflink clone's blocks, which removing one of
// the files does not free). Files are printed in argument order; one that could not be opened has
// no section (its error goes to stderr), so a path without a section is absent from the result.
// A section that names no path we asked for, or an extent line of another shape, is output we do
// not understand: an error, never a guess.

export interface SharedExtent {
  /** Physical offset in bytes on the device. */
  physical: number;
  length: number;
}

export interface FileSharing {
  /** Bytes in extents the kernel flags `shared`. */
  sharedBytes: number;
  shared: SharedExtent[];
}

const EXTENT = /^\s*\d+:\s+\d+\.\.\s*\d+:\s+(\d+)\.\.\s*\d+:\s+(\d+):(?:\s+\d+:)?\s*(\S*)\s*$/;

export function parseFilefrag(stdout: string, paths: readonly string[]): Map<string, FileSharing> {
  const out = new Map<string, FileSharing>();
  let next = 0;
  let current: FileSharing | null = null;
  for (const line of stdout.split("\n")) {
    if (line.startsWith("File size of ")) {
      let found = -1;
      for (let i = next; i < paths.length; i++)
        if (line.startsWith(`File size of ${paths[i] as string} is `)) {
          found = i;
          break;
        }
      if (found < 0) throw new Error(`filefrag printed a file it was not asked about: ${JSON.stringify(line.slice(0, 200))}`);
      current = { sharedBytes: 0, shared: [] };
      out.set(paths[found] as string, current);
      next = found + 1;
      continue;
    }
    if (current === null || line.startsWith(" ext:") || line === "" || line.startsWith("Filesystem type is")) continue;
    const extent = EXTENT.exec(line);
    if (extent) {
      if ((extent[3] as string).split(",").includes("shared")) {
        const length = Number(extent[2]);
        current.sharedBytes += length;
        current.shared.push({ physical: Number(extent[1]), length });
      }
      continue;
    }
    if (/: \d+ extents? found$/.test(line)) continue;
    throw new Error(`filefrag printed a line of unknown shape: ${JSON.stringify(line.slice(0, 200))}`);
  }
  return out;
}
