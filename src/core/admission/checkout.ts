// A checkout that a killed `git worktree add` left half-written (SPEC §5: an add interrupted by a
// crash is finished or rolled back, never mistaken for work). Git writes a new worktree's index
// only when its checkout completes, so the admin dir of a worktree Orchard was creating that has
// no `index` marks an interrupted checkout: git shows every file staged for deletion and the files
// written so far as untracked — git's own debris. Finishing it leaves what git would have left:
// the index from HEAD, the missing files written, and a file git was writing when it died (on disk
// a prefix of its content) rewritten. Nothing else is touched, so a file someone did write there
// stays and shows as the change it is.
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readIndexDifferences, resolveCommit } from "../../git/read.js";
import { checkoutIndexPaths, writeIndexFromHead } from "../../git/write.js";
import { failure } from "../shared/errors.js";
import { processesInside, readProcessCwds } from "../ownership/index.js";
import { readPlainFile } from "../shared/files.js";

/** How long a repair waits for the killed add's own git, which outlives it in its process group. */
const CHECKOUT_EXIT_WAIT_MS = 60_000;
/** Larger files are never taken for a partial write (they are left as they are: a change). */
const PARTIAL_CHECK_MAX_BYTES = 64 * 1024 * 1024;

export function checkoutInterrupted(admin: string): boolean {
  return !existsSync(join(admin, "index"));
}

/** `orchard.json` is written right after git's checkout: a managed worktree without both is an interrupted create. */
export function creationInterrupted(admin: string): boolean {
  return checkoutInterrupted(admin) && !existsSync(join(admin, "orchard.json"));
}

/**
 * Waits while git may still be writing: it holds `index.lock` from the checkout's start to its end
 * and works with the worktree as its cwd. Our own processes are always visible to the scan.
 */
async function waitForCheckoutExit(path: string, admin: string): Promise<void> {
  const deadline = Date.now() + CHECKOUT_EXIT_WAIT_MS;
  while (existsSync(join(admin, "index.lock"))) {
    const cwds = await readProcessCwds();
    if (cwds === null) throw failure("creating_unrepairable", `cannot tell whether git still writes the interrupted checkout ${path} (no process table)`);
    if (processesInside(cwds, path).length === 0) return;
    if (Date.now() > deadline) throw failure("creating_unrepairable", `a process still works inside the interrupted checkout ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Modified files that are a prefix of their checked-out content: git was writing them when it died. */
async function partialWrites(path: string, modified: readonly string[]): Promise<string[]> {
  const files = modified.filter((p) => {
    const st = lstatSync(join(path, p), { throwIfNoEntry: false });
    return st?.isFile() && st.size <= PARTIAL_CHECK_MAX_BYTES;
  });
  if (files.length === 0) return [];
  const scratch = mkdtempSync(join(tmpdir(), "orchard-checkout-"));
  try {
    await checkoutIndexPaths(path, files, `${scratch}/`);
    return files.filter((p) => {
      const written = readPlainFile(join(path, p), { max: PARTIAL_CHECK_MAX_BYTES, follow: false }); // swapped since the lstat: not git's
      const full = readFileSync(join(scratch, p));
      return written !== null && written.length <= full.length && full.subarray(0, written.length).equals(written);
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Finishes the interrupted checkout of a worktree Orchard was creating (callers establish that and
 * hold the mutation lock). `unborn`: git died before HEAD named a commit, so nothing was checked
 * out and the caller may roll the worktree back; it refuses if anything but `.git` is there.
 */
export async function finishCheckout(path: string, admin: string): Promise<"complete" | "finished" | "unborn"> {
  if (!checkoutInterrupted(admin)) return "complete";
  await waitForCheckoutExit(path, admin);
  if (!checkoutInterrupted(admin)) return "complete"; // the killed add's git completed it meanwhile
  if ((await resolveCommit(path, "HEAD")) === null) {
    if (readdirSync(path).some((name) => name !== ".git"))
      throw failure("creating_unrepairable", `${path} holds files although git never checked anything out there; look at it before adding again`);
    return "unborn";
  }
  rmSync(join(admin, "index.lock"), { force: true }); // the killed checkout's: no git works inside any more
  await writeIndexFromHead(path);
  const { deleted, modified } = await readIndexDifferences(path);
  await checkoutIndexPaths(path, [...deleted, ...(await partialWrites(path, modified))]);
  return "finished";
}
