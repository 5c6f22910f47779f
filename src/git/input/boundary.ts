// What an agent can write that would make a git fact about its worktree untrue (SPEC v4 §4.1,
// §4.10): a `core.worktree` or `core.bare` in its `config.worktree` (Orchard's own calls are
// pinned, pin.ts, but the agent's git then works on another tree), a config file the program guard
// cannot vet, a special file (FIFO, socket, device, link) among its admin files, a FIFO, socket or
// device among the files git opens while it walks the worktree (walk-vet.ts). Such a worktree's
// status is never read: it is unknown, with the key or the file named, and so never recycled,
// reaped, removed or reused. Every other worktree of the repository is served as usual.
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { pinArgs } from "./pin.js";
import { kindOf } from "./admin-vet.js";
import { specialWalkFile } from "./walk-vet.js";
import { readPlainText } from "./plain-file.js";
import { StatusUnknownError } from "../errors.js";

export type WorktreeBlock =
  | { code: "worktree_relocated"; key: string; value: string; file: string }
  | { code: "config_unvetted"; file: string; why: string }
  | { code: "admin_file_special"; file: string; kind: string }
  | { code: "walk_file_special"; file: string; kind: string };

export class WorktreeBlockedError extends StatusUnknownError {
  readonly code: WorktreeBlock["code"];
  constructor(
    readonly worktree: string,
    readonly block: WorktreeBlock,
  ) {
    super(blockMessage(worktree, block));
    this.code = block.code;
    this.name = "WorktreeBlockedError";
  }
}

export function blockMessage(worktree: string, block: WorktreeBlock): string {
  switch (block.code) {
    case "worktree_relocated":
      return `${worktree}: ${block.key} = ${JSON.stringify(block.value)} in ${block.file} points git somewhere else than the worktree; its state is unknown until the key is removed (git config --worktree --unset ${block.key})`;
    case "config_unvetted":
      return `${worktree}: the config file ${block.file} cannot be vetted (${block.why}); its state is unknown until the file is a plain file again`;
    case "admin_file_special":
      return `${worktree}: its admin file ${block.file} is ${block.kind}, not a plain file; git would wait on it or read the wrong thing, so its state is unknown until the file is removed`;
    case "walk_file_special":
      return `${worktree}: ${block.file} is ${block.kind}, which git opens while it walks the worktree (an ignore or attributes file) and would wait on; its state is unknown until the file is removed`;
  }
}

/** The key of a block that holds for every worktree of the repository (a file the common config includes). */
export const ALL_WORKTREES = "*";

/** Per repository (common dir, realpath): admin dir (realpath) → why its worktree cannot be read. */
const blocks = new Map<string, ReadonlyMap<string, WorktreeBlock>>();

/** Records what the configuration read found for the repository's worktrees (programs/read.ts). */
export function setWorktreeBlocks(commonDir: string, found: ReadonlyMap<string, WorktreeBlock>): void {
  blocks.set(commonDir, found);
}

/** The admin files git reads for a worktree: each must be a plain file (or a directory where git keeps one). */
const DIRECTORIES = new Set(["logs", "refs", "rebase-merge", "rebase-apply", "sequencer", "info", "hooks", "objects"]);

/**
 * The first special file among the admin files of the worktree whose git dir is `admin` (its own
 * dir of `<common>/worktrees/`), or null. Only the top level: what git reads there is plain files
 * (HEAD, gitdir, commondir, locked, index, config.worktree, ORIG_HEAD, MERGE_HEAD…).
 */
export function specialAdminFile(admin: string): { file: string; kind: string } | null {
  let names: string[];
  try {
    names = readdirSync(admin);
  } catch {
    return null; // no admin dir to read: git says so itself
  }
  for (const name of names.sort()) {
    const st = lstatSync(join(admin, name), { throwIfNoEntry: false });
    if (!st || st.isFile()) continue;
    if (st.isDirectory() && (DIRECTORIES.has(name) || name.startsWith("."))) continue;
    if (st.isDirectory()) continue; // git never reads a directory as one of its files
    return { file: join(admin, name), kind: kindOf(st) };
  }
  return null;
}

/** Why git's facts of the worktree at `worktree` cannot be read, or null. */
export function worktreeBlockError(worktree: string): WorktreeBlockedError | null {
  const pin = pinArgs(worktree)[0];
  if (pin === undefined) return null;
  let admin: string;
  try {
    admin = realpathSync(pin.slice("--git-dir=".length));
  } catch {
    return null; // git will say what is wrong with it
  }
  const linked = admin.includes("/worktrees/");
  const special = linked ? specialAdminFile(admin) : null;
  if (special) return new WorktreeBlockedError(worktree, { code: "admin_file_special", ...special });
  const walked = specialWalkFile(worktree, admin, linked ? commonDirOfAdmin(admin) : admin);
  if (walked) return new WorktreeBlockedError(worktree, { code: "walk_file_special", ...walked });
  for (const found of blocks.values()) {
    const block = found.get(admin) ?? (admin.includes("/worktrees/") ? found.get(ALL_WORKTREES) : undefined);
    if (block) return new WorktreeBlockedError(worktree, block);
  }
  return null;
}

/** A linked worktree's common dir (realpath) from its admin dir's `commondir` (git's default: two levels up). */
function commonDirOfAdmin(admin: string): string {
  const rel = readPlainText(join(admin, "commondir"), 4096)?.trim() || "../..";
  try {
    return realpathSync(resolve(admin, rel));
  } catch {
    return resolve(admin, rel);
  }
}
