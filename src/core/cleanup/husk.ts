// Removing a husk (a directory under the managed root that git does not list), and salvaging its
// files first. The salvage commit is built like a worktree salvage (SPEC §1) but from a plain
// directory: `add -A` (plus its unique ignored files, §4.7) with the husk as work tree of the repo it belongs to, into a temporary
// index, no parent (there is no HEAD to know). Removal never follows a symbolic link and never
// leaves the managed root: the path must be a direct child of the root and a real directory.
import { lstatSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { hasCommitIdentity, isValidBranchName, resolveCommit } from "../../git/read.js";
import { commitTree, createRef, writeTreeOfDirectory } from "../../git/write.js";
import { SALVAGE_PREFIX, requireSalvageable, salvageMessage, salvageStamp, type SalvageMetadata } from "../salvage/index.js";
import { readHuskUniqueIgnored } from "../hygiene/index.js";
import { slug } from "../shared/naming/identity.js";
import { failure } from "../shared/errors.js";
import { isInside, type Ctx } from "../shared/context.js";

const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: "Orchard",
  GIT_AUTHOR_EMAIL: "orchard@localhost",
  GIT_COMMITTER_NAME: "Orchard",
  GIT_COMMITTER_EMAIL: "orchard@localhost",
};

/** Why a path may not be touched as a husk, or null when it is a real directory directly under the root. */
export function huskContainment(root: string, path: string): string | null {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return null;
  if (st.isSymbolicLink()) return "a symbolic link";
  if (!st.isDirectory()) return "not a directory";
  if (dirname(path) !== root || !isInside(root, realpathSync(path))) return "outside the managed root";
  return null;
}

/** Throws `salvage_too_large` when a salvage of the husk now would have to refuse (what a dry run predicts). */
export async function checkHuskSalvageable(ctx: Ctx, path: string): Promise<void> {
  requireSalvageable(path, await readHuskUniqueIgnored(ctx.repo.commonDir, path));
}

export async function salvageHusk(ctx: Ctx, path: string, why: string): Promise<{ ref: string; commit: string }> {
  const scratch = mkdtempSync(join(tmpdir(), "orchard-husk-salvage-"));
  const now = new Date();
  let commit: string;
  try {
    const ignored = requireSalvageable(path, await readHuskUniqueIgnored(ctx.repo.commonDir, path));
    const tree = await writeTreeOfDirectory(
      ctx.repo.commonDir,
      path,
      join(scratch, "index"),
      ignored.map((f) => f.path),
    );
    const meta: SalvageMetadata = { orchardSalvage: 1, path, handle: null, branch: null, head: null, reason: why, time: now.toISOString() };
    const env = (await hasCommitIdentity(ctx.repo.primary)) ? undefined : FALLBACK_IDENTITY;
    commit = await commitTree(ctx.repo.primary, { tree, parents: [], message: salvageMessage(meta), ...(env ? { env } : {}) });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const name = basename(path);
  const key = (await isValidBranchName(ctx.repo.primary, name)) ? name : slug(name);
  const base = `${SALVAGE_PREFIX}${key}/${salvageStamp(now)}`;
  for (let n = 1; n <= 100; n++) {
    const ref = n === 1 ? base : `${base}-${n}`;
    if (await createRef(ctx.repo.primary, ref, commit)) {
      const row = await ctx.registry.worktrees.atPath(ctx.repo.identity, path);
      await ctx.registry.write(
        async () =>
          await ctx.registry.events.append({
            kind: "salvaged",
            repo: ctx.repo.identity,
            handle: row?.handle ?? null,
            task: row?.task ?? null,
            owner: row?.owner ?? null,
            data: { ref, commit, path, reason: why, husk: true },
          }),
      );
      return { ref, commit };
    }
    if (!(await resolveCommit(ctx.repo.primary, ref))) break;
  }
  throw failure("salvage_failed", `could not create a salvage ref under ${base}`);
}

/** Deletes the husk directory; Node's recursive rm unlinks symbolic links inside, never their targets. */
export function removeHusk(root: string, path: string): void {
  const refused = huskContainment(root, path);
  if (refused) throw failure("remove_failed", `refusing to delete ${path}: ${refused}`);
  rmSync(path, { recursive: true, force: true });
}
