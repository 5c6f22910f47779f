// Batched and in-process reads for a long run of merges (a cleanup wave): the deletions of many
// branches in one `diff-tree --stdin`, a compare-and-swap delete of many refs in one `update-ref
// --stdin` transaction, and — between the wave's own writes, no process at all — a loose ref's
// value and a loose commit's parents, read from the files git itself just wrote. An in-process read
// answers null wherever it is not sure (a packed ref, a packed object, a reftable, anything not a
// plain file): the caller then asks git.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { git } from "../run.js";
import { readPlainFile } from "../input/plain-file.js";

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const WRITE = { read: false } as const;

/**
 * Files deleted between `from` and `to` (`git diff --diff-filter=D --no-renames from to`) for many
 * pairs of commits in one process: `diff-tree --stdin` diffs each line's commit against the one it
 * names after it, and `--always` prints every line's header, so each answer is found in order.
 */
export async function readDeletedFilesMany(cwd: string, pairs: readonly { from: string; to: string }[]): Promise<string[][]> {
  if (pairs.length === 0) return [];
  for (const p of pairs) if (!SHA.test(p.from) || !SHA.test(p.to)) throw new Error("readDeletedFilesMany needs full object names");
  const input = pairs.map((p) => `${p.to} ${p.from}\n`).join("");
  const r = await git(["diff-tree", "--stdin", "--always", "-r", "-z", "--name-status", "--diff-filter=D", "--no-renames"], { cwd, input, timeoutMs: 300_000 });
  // records: <commit> NUL, then (D NUL <path> NUL)* — a status is never an object name
  const tokens = r.stdout.split("\0");
  const out: string[][] = [];
  let current: string[] | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === "") continue;
    if (token === "D" && current !== null) {
      const path = tokens[++i];
      if (path === undefined) throw new Error("git diff-tree --stdin: a status without a path");
      current.push(path);
    } else if (SHA.test(token)) out.push((current = []));
    else throw new Error(`git diff-tree --stdin: unexpected output ${JSON.stringify(token.slice(0, 80))}`);
  }
  if (out.length !== pairs.length) throw new Error(`git diff-tree --stdin answered ${out.length} of ${pairs.length} pairs`);
  return out;
}

/**
 * Deletes every ref while it still points at its expected commit, all or none, in one process
 * (`update-ref --stdin`, one transaction); false when git refused (a ref moved, a lock held) and
 * nothing was deleted.
 */
export async function deleteRefsAtomically(cwd: string, refs: readonly { ref: string; expected: string }[]): Promise<boolean> {
  if (refs.length === 0) return true;
  for (const r of refs) if (!r.ref.startsWith("refs/") || /[\0\n]/.test(r.ref) || !SHA.test(r.expected)) return false;
  const input = refs.map((r) => `delete ${r.ref}\0${r.expected}\0`).join("");
  const r = await git(["update-ref", "-z", "--stdin"], { cwd, ...WRITE, input, ok: [0, 1, 128] });
  return r.exitCode === 0;
}

/** A ref's value from its loose file (files backend), or null: packed only, a reftable, not a plain file. */
export function readLooseRef(commonDir: string, ref: string): string | null {
  if (!ref.startsWith("refs/") || ref.split("/").some((part) => part === "" || part === "." || part === "..")) return null;
  if (existsSync(join(commonDir, "reftable"))) return null;
  const bytes = readPlainFile(join(commonDir, ref), 200);
  const text = bytes?.toString("latin1").trim() ?? "";
  return SHA.test(text) ? text : null;
}

/** A loose commit's tree and parents, read and inflated in-process; null when it is not a loose commit (packed, or another kind). */
export function readLooseCommit(commonDir: string, commit: string): { tree: string; parents: string[] } | null {
  if (!SHA.test(commit)) return null;
  const bytes = readPlainFile(join(commonDir, "objects", commit.slice(0, 2), commit.slice(2)), 16 * 1024 * 1024);
  if (bytes === null) return null;
  let raw: Buffer;
  try {
    raw = inflateSync(bytes);
  } catch {
    return null;
  }
  const nul = raw.indexOf(0);
  if (nul < 0 || !/^commit \d+$/.test(raw.subarray(0, nul).toString("latin1"))) return null;
  const parents: string[] = [];
  let tree = "";
  for (const line of raw
    .subarray(nul + 1)
    .toString("latin1")
    .split("\n")) {
    if (line === "") break; // the headers end at the first blank line
    if (line.startsWith("tree ") && tree === "") tree = line.slice("tree ".length);
    else if (line.startsWith("parent ")) parents.push(line.slice("parent ".length));
  }
  return SHA.test(tree) && parents.every((p) => SHA.test(p)) ? { tree, parents } : null;
}
