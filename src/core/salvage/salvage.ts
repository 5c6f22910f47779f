// Salvage refs (SPEC §1): before anything destructive happens to a worktree that holds work,
// its full state (tracked + untracked + unique ignored files, §4.7) is committed to
// `refs/orchard/salvage/<handle or admin id>/<UTC yyyymmddThhmmssZ>` with parent = HEAD (none
// if unborn) and JSON metadata in the message. The commit is built through a TEMPORARY index
// seeded from the worktree's own, so neither the worktree's files nor its index change. The ref
// is created with the zero oid as expected value: a salvage never overwrites another; two in
// the same second get `-2`, `-3`… suffixes. Callers may or may not hold the mutation lock: the
// only repository write is that compare-and-swap ref creation (plus new objects).
import { existsSync, lstatSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { hasCommitIdentity, isValidBranchName, readGitPath, readReflogOnly, readStatus, resolveCommit } from "../../git/read.js";
import { disposableOf, scanIgnored, type IgnoredFile } from "../facts/index.js";
import { commitTree, createRef, writeTreeThroughIndex } from "../../git/write.js";
import { slug } from "../shared/naming/identity.js";
import { failure } from "../shared/errors.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { whyNotLinkedWorktree } from "../shared/repo/linked.js";
import { readPlainFile } from "../shared/files.js";
import type { Ctx } from "../shared/context.js";

export const SALVAGE_PREFIX = "refs/orchard/salvage/";

export interface SalvageInput {
  path: string;
  handle: string | null;
  branch: string | null;
  /** The HEAD the caller saw; the commit's parent is the HEAD read at salvage time. */
  head: string | null;
  reason: string;
}

/** The JSON carried in a salvage commit's message body. */
export interface SalvageMetadata {
  orchardSalvage: 1;
  path: string;
  handle: string | null;
  branch: string | null;
  head: string | null;
  reason: string;
  time: string;
}

/** `yyyymmddThhmmssZ` in UTC. */
export function salvageStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

export function salvageMessage(meta: SalvageMetadata): string {
  return `orchard salvage of ${meta.path}\n\n${JSON.stringify(meta)}\n`;
}

/** Metadata from a salvage commit's body, or null when it is not Orchard's JSON. */
export function parseSalvageBody(body: string): SalvageMetadata | null {
  try {
    const value = JSON.parse(body.trim()) as Partial<SalvageMetadata> | null;
    if (!value || typeof value !== "object" || typeof value.path !== "string" || typeof value.time !== "string") return null;
    return value as SalvageMetadata;
  } catch {
    return null; // a ref someone else put under refs/orchard/salvage: listed without metadata
  }
}

const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: "Orchard",
  GIT_AUTHOR_EMAIL: "orchard@localhost",
  GIT_COMMITTER_NAME: "Orchard",
  GIT_COMMITTER_EMAIL: "orchard@localhost",
};

/** The ref's directory component: the handle, else the worktree's admin id; always a valid ref component. */
async function refKey(cwd: string, input: SalvageInput, adminDir: string): Promise<string> {
  const wanted = input.handle ?? basename(adminDir);
  return (await isValidBranchName(cwd, wanted)) && !wanted.includes("/") ? wanted : slug(wanted);
}

export async function salvageWorktree(ctx: Ctx, input: SalvageInput): Promise<{ ref: string; commit: string }> {
  if (!existsSync(input.path)) throw failure("salvage_failed", `cannot salvage ${input.path}: the directory is gone`);
  // a `.git` naming another git dir (the primary's) would make this a salvage of that repository's index
  const admin = findAdminDir(ctx.repo.commonDir, input.path);
  const notLinked = admin === undefined ? `git has no admin dir for ${input.path}` : whyNotLinkedWorktree(input.path, admin);
  if (notLinked !== null) throw failure("not_a_linked_worktree", `refusing to salvage ${input.path}: ${notLinked}`);
  const index = await readGitPath(input.path, "index");
  const head = await resolveCommit(input.path, "HEAD");
  const ignored = await readUniqueIgnored(ctx, input.path);
  const scratch = mkdtempSync(join(tmpdir(), "orchard-salvage-"));
  let commit: string;
  const now = new Date();
  try {
    const tempIndex = join(scratch, "index");
    // seeded from the worktree's index: keeps force-added files and the stat cache; absent index → empty
    // read as a plain file: an index swapped for a FIFO never hangs the salvage, it fails it (nothing is removed unsalvaged)
    if (lstatSync(index, { throwIfNoEntry: false })) {
      const seed = readPlainFile(index, { max: 2 * 1024 ** 3, follow: false });
      if (seed === null) throw failure("salvage_failed", `cannot salvage ${input.path}: its index ${index} is not a plain file`);
      writeFileSync(tempIndex, seed, { mode: 0o600 });
    }
    const tree = await writeTreeThroughIndex(
      input.path,
      tempIndex,
      ignored.map((f) => f.path),
    );
    const meta: SalvageMetadata = {
      orchardSalvage: 1,
      path: input.path,
      handle: input.handle,
      branch: input.branch,
      head,
      reason: input.reason,
      time: now.toISOString(),
    };
    const env = (await hasCommitIdentity(input.path)) ? undefined : FALLBACK_IDENTITY;
    // commits only the HEAD reflog keeps (a detached HEAD moved away from them) are kept as further parents (SPEC v5 §3.11)
    const reflog = (await readReflogOnly(ctx.repo.primary, dirname(index), head))?.tips ?? [];
    commit = await commitTree(input.path, { tree, parents: [...(head ? [head] : []), ...reflog], message: salvageMessage(meta), ...(env ? { env } : {}) });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const base = `${SALVAGE_PREFIX}${await refKey(ctx.repo.primary, input, dirname(index))}/${salvageStamp(now)}`;
  const ref = await createUnique(ctx.repo.primary, base, commit);
  await recordEvent(ctx, input, ref, commit);
  return { ref, commit };
}

export const MAX_IGNORED_FILE = 10 * 1024 * 1024;
export const MAX_IGNORED_TOTAL = 100 * 1024 * 1024;

/**
 * The unique ignored files a salvage must keep (§4.7), read at the moment of use. Too large to
 * keep is a refusal (`salvage_too_large`), never a salvage that silently drops them.
 */
async function readUniqueIgnored(ctx: Ctx, path: string): Promise<IgnoredFile[]> {
  const status = await readStatus(path, { ignored: true });
  const files = scanIgnored({ worktree: path, status, primary: ctx.repo.bare ? null : ctx.repo.primary, disposable: disposableOf(ctx.repo) });
  return requireSalvageable(path, files);
}

/** Throws `salvage_too_large` when a salvage of the worktree now would have to refuse (what a dry run predicts). */
export async function checkSalvageable(ctx: Ctx, path: string): Promise<void> {
  await readUniqueIgnored(ctx, path);
}

/** The files, when a salvage may keep them all; else `salvage_too_large`. */
export function requireSalvageable(path: string, files: IgnoredFile[]): IgnoredFile[] {
  const big = files.filter((f) => f.size > MAX_IGNORED_FILE);
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (big.length > 0 || total > MAX_IGNORED_TOTAL) {
    const what =
      big.length > 0
        ? `${big
            .map((f) => f.path)
            .slice(0, 5)
            .join(", ")} over 10 MiB`
        : `${total} bytes of ignored files in all (over 100 MiB)`;
    throw failure("salvage_too_large", `cannot salvage ${path}: ${what}; nothing was removed`);
  }
  return files;
}

async function createUnique(cwd: string, base: string, commit: string): Promise<string> {
  for (let n = 1; n <= 100; n++) {
    const ref = n === 1 ? base : `${base}-${n}`;
    if (await createRef(cwd, ref, commit)) return ref;
    if (!(await resolveCommit(cwd, ref))) throw failure("salvage_failed", `git could not create the salvage ref ${ref}`);
  }
  throw failure("salvage_failed", `100 salvage refs already exist under ${base}`);
}

async function recordEvent(ctx: Ctx, input: SalvageInput, ref: string, commit: string): Promise<void> {
  if (input.handle === null) return;
  const row = await ctx.registry.worktrees.byHandle(input.handle);
  if (!row || row.repo !== ctx.repo.identity) return;
  await ctx.registry.write(
    async () =>
      await ctx.registry.events.append({
        kind: "salvaged",
        repo: row.repo,
        handle: row.handle,
        task: row.task,
        owner: row.owner,
        data: { ref, commit, path: input.path, branch: input.branch, reason: input.reason },
      }),
  );
}
