// One config file an agent may have written (a worktree's config.worktree, a file an include
// names), read for the program guard (programs/read.ts) without trusting it: only a plain file of
// at most 1 MiB is read (a FIFO never hangs the read, a huge file never fills memory), and git
// parses a private copy of what was read, so the file cannot change between the check and git's
// read. A file in which no program setting, include or work tree key can hide costs no git: a
// section or key name is never split or escaped in git's config syntax, so a name that is not in
// the text, in any case, is not in the file.
import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git } from "../run.js";
import { PROGRAM_KEYS_REGEXP } from "../programs/policy.js";
import { readPlainFile } from "./plain-file.js";
import { provedOnce } from "../warm/proof-cache.js";
import { parseConfigRecords, type ConfigRecord } from "../parse/config.js";

const MAX_CONFIG_BYTES = 1024 * 1024;
/** A word of every key PROGRAM_KEYS_REGEXP matches (lowercase): one of them is in any file that sets one. */
const WORDS = [
  "fsmonitor",
  "sshcommand",
  "askpass",
  "alternaterefscommand",
  "gpgsign",
  "showsignature",
  "verifysignatures",
  "gpg",
  "filter",
  "driver",
  "helper",
  "include",
  "worktree",
  "bare",
];

export type ConfigFileRead = { kind: "absent" } | { kind: "unvetted"; why: string } | { kind: "read"; entries: ConfigRecord[] };

/** The file's vetting, kept while the file is the same file (warm/proof-cache.ts): a stat, not a git, for an unchanged one. */
export async function readConfigFile(file: string): Promise<ConfigFileRead> {
  return provedOnce("config", file, [file], () => vetConfigFile(file));
}

async function vetConfigFile(file: string): Promise<ConfigFileRead> {
  const bytes = readPlainFile(file, MAX_CONFIG_BYTES);
  if (bytes === null) return existsSync(file) ? { kind: "unvetted", why: "not a plain file of at most 1 MiB" } : { kind: "absent" };
  const text = bytes.toString("latin1").toLowerCase();
  if (!WORDS.some((w) => text.includes(w))) return { kind: "read", entries: [] };
  const scratch = mkdtempSync(join(tmpdir(), "orchard-config-"));
  try {
    const copy = join(scratch, "config");
    writeFileSync(copy, bytes, { mode: 0o600 });
    // run outside any repository: git reads no repository config (and nothing it includes) for this
    const r = await git(["config", "-z", "--show-origin", "--file", copy, "--get-regexp", PROGRAM_KEYS_REGEXP], { cwd: scratch, ok: [0, 1, 3, 128] });
    if (r.exitCode !== 0 && r.exitCode !== 1)
      return { kind: "unvetted", why: `git cannot read it (${r.stderr.trim().split("\n")[0] ?? `exit ${r.exitCode}`})` };
    return { kind: "read", entries: parseConfigRecords(r.stdout, false) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
