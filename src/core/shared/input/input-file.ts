// Every file Orchard reads because its input names it — `.orchard.json` and `.worktreeinclude`,
// a wave's `--manifest` (from the CLI or an MCP client) — is read by one rule (SPEC v3 §4.2, §6):
// a regular file of at most 1 MiB, else invalid input (exit 2) naming the file and never echoing
// its content. Opened non-blocking, so a FIFO never hangs the open; fstat decides on what was
// opened (a device like /dev/zero, a FIFO, a directory are not regular files), and the read stops
// one byte past the limit, so a file that grows while being read costs at most 1 MiB of memory.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import type { OrchardError } from "../errors.js";

export const INPUT_MAX_BYTES = 1024 * 1024;

export interface InputFileRule {
  /** When given, the file must resolve inside this directory (a repository's own config: no symlink out of it). */
  inside: string | null;
  /** The error for `why` (e.g. "is not a regular file"); the caller names the file and the rule. */
  bad: (why: string) => OrchardError;
}

/** The file's bytes, or null when nothing is at `path`; throws `rule.bad(...)` for anything but a regular file ≤ 1 MiB. */
export function readInputFile(path: string, rule: InputFileRule): Buffer | null {
  if (!lstatSync(path, { throwIfNoEntry: false })) return null;
  const { bad } = rule;
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw bad("is a symbolic link that leads nowhere");
  }
  const rel = rule.inside === null ? "" : relative(realpathSync(rule.inside), real);
  if (rule.inside !== null && (rel === "" || rel.startsWith("..") || isAbsolute(rel))) throw bad("leads outside the repository");
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    throw bad(`cannot be opened (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw bad(st.isDirectory() ? "is a directory, not a regular file" : "is not a regular file");
    if (st.size > INPUT_MAX_BYTES) throw bad(`is larger than 1 MiB (${st.size} bytes)`);
    const buffer = Buffer.alloc(INPUT_MAX_BYTES + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length <= INPUT_MAX_BYTES; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > INPUT_MAX_BYTES) throw bad("grew past 1 MiB while being read");
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * Where a JSON text read from input broke, for a message: never what it holds (the parser's own
 * message quotes the text, and a manifest may be /etc/shadow; SPEC v4 §4.2). " (at byte N)" when the
 * parser says where, else nothing.
 */
export function jsonBreakAt(error: unknown): string {
  const at = /position (\d+)/.exec(error instanceof Error ? error.message : "")?.[1];
  return at ? ` (at byte ${at})` : "";
}
