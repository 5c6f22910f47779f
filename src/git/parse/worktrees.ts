import { ParseError, quote } from "./errors.js";

export interface WorktreeEntry {
  path: string; // as git prints it
  head: string | null; // sha, null for bare
  branch: string | null; // full ref e.g. "refs/heads/main"; null when detached or bare
  detached: boolean;
  bare: boolean;
  locked: boolean;
  lockReason: string | null; // "" when locked without a reason; null when not locked
  prunable: string | null; // reason text or ""; null when not prunable
}

const FORMAT = "worktree list --porcelain -z";
const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** Format: `git worktree list --porcelain -z` — NUL-terminated `label[ value]` attributes (values raw, unquoted), each record closed by an empty attribute; the first record is the main worktree. */
export function parseWorktreeList(stdout: string): WorktreeEntry[] {
  if (stdout === "") return [];
  if (!stdout.endsWith("\0\0")) {
    throw new ParseError(FORMAT, "output must end with an empty attribute (NUL NUL); was -z passed?");
  }
  // Labels are never empty and git omits the space when a value is empty, so "\0\0" only ever ends a record.
  return stdout
    .slice(0, -2)
    .split("\0\0")
    .map((record) => parseRecord(record.split("\0")));
}

function parseRecord(attrs: string[]): WorktreeEntry {
  const [first = "", ...rest] = attrs;
  if (!first.startsWith("worktree ") || first.length === "worktree ".length) {
    throw new ParseError(FORMAT, `record must start with "worktree <path>", got ${quote(first)}`);
  }
  const entry: WorktreeEntry = {
    path: first.slice("worktree ".length),
    head: null,
    branch: null,
    detached: false,
    bare: false,
    locked: false,
    lockReason: null,
    prunable: null,
  };
  const seen = new Set<string>();
  for (const attr of rest) {
    const space = attr.indexOf(" ");
    const label = space < 0 ? attr : attr.slice(0, space);
    const value = space < 0 ? null : attr.slice(space + 1);
    if (seen.has(label)) throw new ParseError(FORMAT, `duplicate attribute ${quote(label)} in ${quote(entry.path)}`);
    seen.add(label);
    const bad = () => new ParseError(FORMAT, `malformed attribute ${quote(attr)} in ${quote(entry.path)}`);
    switch (label) {
      case "HEAD":
        if (value === null || !SHA.test(value)) throw bad();
        entry.head = value;
        break;
      case "branch":
        if (!value) throw bad();
        entry.branch = value;
        break;
      case "detached":
      case "bare":
        if (value !== null) throw bad();
        entry[label] = true;
        break;
      case "locked":
        entry.locked = true;
        entry.lockReason = value ?? "";
        break;
      case "prunable":
        entry.prunable = value ?? "";
        break;
      default:
        throw new ParseError(FORMAT, `unknown attribute ${quote(attr)} in ${quote(entry.path)}`);
    }
  }
  if (entry.bare === (entry.head !== null)) {
    throw new ParseError(FORMAT, `record ${quote(entry.path)} must have exactly one of "bare" or "HEAD"`);
  }
  if (entry.detached && entry.branch !== null) {
    throw new ParseError(FORMAT, `record ${quote(entry.path)} is both detached and on a branch`);
  }
  return entry;
}
