// The real shells, for completion and shell-init tests: bash through its completion API
// (COMP_WORDS, the function `complete -F` names), zsh through an interactive zsh on a pseudo
// terminal (zsh/zpty, compinit, a key bound to insert every match, the line read back), fish
// through `complete -C`. A missing shell skips its test and says so; under CI
// (ORCHARD_TEST_REQUIRE_SHELLS=1, set by .ci/run, which installs them) it fails instead.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hermeticEnv } from "./env.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export function shellInstalled(shell: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${shell}`], { encoding: "utf8" }).status === 0;
}

/**
 * Whether a test of `shell` runs here. Missing under ORCHARD_TEST_REQUIRE_SHELLS=1: the test
 * runs and fails on this check (never a silent skip in CI); missing otherwise: skipped, loudly.
 */
export function shellRuns(shell: string, file: string): boolean {
  if (shellInstalled(shell) || process.env.ORCHARD_TEST_REQUIRE_SHELLS === "1") return true;
  console.warn(`${file}: ${shell} is not installed here: its tests are SKIPPED (CI installs it and fails without it)`);
  return false;
}

/** Throws when the shell is missing: the first line of every shell test, so CI fails loudly. */
export function requireShell(shell: string): void {
  if (!shellInstalled(shell)) throw new Error(`${shell} is not installed (apt-get install -y zsh fish); ORCHARD_TEST_REQUIRE_SHELLS=1 makes it a failure`);
}

export interface ShellRun {
  cwd: string;
  /** PATH with `orchard` on it, ORCHARD_HOME, … (hermetic git is added). */
  env: Record<string, string>;
}

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * What `shell` offers for the command line `line` (completed at its end), as a sorted list of
 * words. bash and fish answer their candidates; zsh inserts every match into the line (a widget
 * bound to `_all_matches`) and the words it added are read back.
 */
export function completeIn(shell: Shell, line: string, run: ShellRun): string[] {
  const env = hermeticEnv(run.env);
  if (shell === "bash") {
    const words = line.split(" ");
    const script = `source <(orchard completion bash) && COMP_WORDS=(${words.map(q).join(" ")}) && COMP_CWORD=${words.length - 1} && _orchard && printf '%s\\n' "\${COMPREPLY[@]}"`;
    return lines(spawnSync("bash", ["-c", script], { cwd: run.cwd, env, encoding: "utf8", timeout: 30_000 }), shell);
  }
  if (shell === "fish") {
    const script = `orchard completion fish | source; and complete -C ${q(line)}`;
    const r = spawnSync("fish", ["--no-config", "-c", script], { cwd: run.cwd, env, encoding: "utf8", timeout: 30_000 });
    return lines(r, shell).map((l) => l.split("\t")[0] ?? "");
  }
  return zshComplete(line, run.cwd, env);
}

function lines(r: ReturnType<typeof spawnSync>, shell: string): string[] {
  if (r.status !== 0) throw new Error(`${shell} exited ${r.status} ${String(r.signal)}: ${String(r.stderr)}`);
  return String(r.stdout).split("\n").filter(Boolean).sort();
}

/** compinit's dump, shared by every zsh of this test process (the first builds it), removed when the process ends. */
let zcompdump: string | undefined;
function zcompdumpFile(): string {
  if (zcompdump === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "orchard-zcomp-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    zcompdump = join(dir, "zcompdump");
  }
  return zcompdump;
}

/** An interactive zsh on a zpty: the line, then ^T (every match inserted), then ^X (the buffer written to a file). */
function zshComplete(line: string, cwd: string, env: NodeJS.ProcessEnv): string[] {
  const dir = mkdtempSync(join(tmpdir(), "orchard-zsh-"));
  const out = join(dir, "buffer");
  const setup = [
    "PS1='> '",
    "autoload -U compinit && compinit -u -d " + q(zcompdumpFile()),
    "source <(orchard completion zsh)",
    `orchard-dump() { print -r -- "$BUFFER" > ${q(out)} }`,
    "zle -N orchard-dump",
    "bindkey '^X' orchard-dump",
    "zle -C all-matches complete-word _generic",
    "zstyle ':completion:all-matches::::' completer _all_matches _complete",
    "zstyle ':completion:all-matches:*' insert true",
    "bindkey '^T' all-matches",
  ].join("; ");
  // the driver polls for the dumped buffer with a deadline (no sleeps), then ends the session
  const driver = `zmodload zsh/zpty
zpty -b z 'zsh -f -i'
zpty -w z ${q(setup)}
zpty -w -n z ${q(line)}$'\\x14\\x18'
integer i=0
while [[ ! -s ${q(out)} ]] && (( i++ < 300 )); do zselect -t 10 2>/dev/null || sleep 0.1; done
zpty -d z
cat ${q(out)}`;
  try {
    const r = spawnSync("zsh", ["-f", "-c", `zmodload zsh/zselect; ${driver}`], { cwd, env, encoding: "utf8", timeout: 60_000 });
    if (r.status !== 0) throw new Error(`zsh exited ${r.status}: ${r.stderr}`);
    const buffer = r.stdout.replace(/\n$/, "");
    if (buffer === line) return []; // nothing matched: the line is as typed
    const base = line.slice(0, line.lastIndexOf(" ") + 1);
    if (!buffer.startsWith(base)) throw new Error(`zsh changed the line before the word: ${JSON.stringify(buffer)} (typed ${JSON.stringify(line)})`);
    return buffer.slice(base.length).split(" ").filter(Boolean).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
