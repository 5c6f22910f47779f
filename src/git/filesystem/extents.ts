// Which blocks of a file a reflink clone shares (FIEMAP's `shared` flag), read through one
// `filefrag` process per batch of files: Node has no FIEMAP. Lives in src/git, the only layer that
// spawns processes. Null for a batch when filefrag is missing or failed: the sharing stays unknown.
import { runProcess } from "../run.js";
import { parseFilefrag, type FileSharing } from "../parse/filefrag.js";

export type { FileSharing, SharedExtent } from "../parse/filefrag.js";

const BATCH = 400;
const opts = { cwd: "/", env: { ...process.env, LC_ALL: "C" }, timeoutMs: 60_000 };

/** The shared extents of each file (absolute paths without a newline); a file absent from the map could not be read. */
export async function readSharing(paths: readonly string[], deadline: number): Promise<Map<string, FileSharing> | null> {
  const all = new Map<string, FileSharing>();
  for (let i = 0; i < paths.length; i += BATCH) {
    if (Date.now() > deadline) return null;
    const batch = paths.slice(i, i + BATCH);
    const r = await runProcess("filefrag", ["-e", "-b1", "--", ...batch], opts).catch(() => null);
    // exit 1 when some file could not be opened (it has no section); anything without output is a failure
    if (!r || r.timedOut || (r.exitCode !== 0 && r.exitCode !== 1 && r.stdout === "")) return null;
    for (const [path, sharing] of parseFilefrag(r.stdout, batch)) all.set(path, sharing);
  }
  return all;
}
