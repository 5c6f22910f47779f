// A copy-on-write filesystem for the reflink tests: a small XFS image (reflink=1), else btrfs,
// mounted on a loop device. Needs root, mkfs.xfs or mkfs.btrfs, and a kernel that lets this
// process mount; where any of that is missing, `mountCow` says why and the test skips loudly.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type CowMount = { ok: true; dir: string; fs: string; unmount: () => void } | { ok: false; reason: string };

const run = (cmd: string, args: string[]): { ok: boolean; out: string } => {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 60_000 });
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? r.error.message : ""}`.trim() };
};

export function mountCow(): CowMount {
  if (process.getuid?.() !== 0) return { ok: false, reason: "mounting a loop device needs root" };
  const root = mkdtempSync(join(tmpdir(), "orchard-cow-"));
  const image = join(root, "fs.img");
  const dir = join(root, "mnt");
  mkdirSync(dir);
  const why: string[] = [];
  for (const [fs, mkfs] of [
    ["xfs", ["mkfs.xfs", ["-q", "-m", "reflink=1", image]]],
    ["btrfs", ["mkfs.btrfs", ["-q", image]]],
  ] as const) {
    rmSync(image, { force: true });
    const made = run("truncate", ["-s", "400M", image]);
    const formatted = made.ok ? run(mkfs[0], [...mkfs[1]]) : made;
    const mounted = formatted.ok ? run("mount", ["-o", "loop", image, dir]) : formatted;
    if (mounted.ok) {
      const unmount = (): void => {
        run("umount", [dir]);
        rmSync(root, { recursive: true, force: true });
      };
      return { ok: true, dir, fs, unmount };
    }
    why.push(`${fs}: ${mounted.out.split("\n")[0] || "failed"}`);
  }
  rmSync(root, { recursive: true, force: true });
  return { ok: false, reason: `no copy-on-write filesystem could be mounted (${why.join("; ")})` };
}

/** `filefrag -v` says an extent of the file is shared (a reflink). */
export function hasSharedExtent(file: string): boolean {
  const r = run("filefrag", ["-v", file]);
  return r.ok && /\bshared\b/.test(r.out);
}

export function freeBytes(dir: string): number {
  const st = statfsSync(dir);
  return st.bavail * st.bsize;
}
