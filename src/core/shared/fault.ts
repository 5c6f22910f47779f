// Test-only fault injection: a named step at which the process SIGKILLs itself when the
// environment variable ORCHARD_FAULT_AT names that step. Tests use it to prove that a crash at
// that step converges on the next run. Without the variable it does nothing.
//
// Points: add.row, add.branch, add.checkout (inside git's checkout, see below), add.checked-out,
// add.active; bootstrap.copy, bootstrap.context, bootstrap.run, bootstrap.fingerprint;
// recycle.locked, recycle.switched, recycle.cleaned, recycle.moved, recycle.recorded;
// share.copying (after the first file of a kept copy), share.copied (whole and marked, before the
// rename into place); wave.merge, wave.merged; restore.staged (salvage restore, the salvaged tree staged, not yet unstaged).
//
// A pause point (ORCHARD_PAUSE_AT names it, ORCHARD_PAUSE_DIR is a directory of the test's) holds
// the process instead: it writes `<dir>/<point>.<pid>.<n>` and waits while `<dir>/hold` exists,
// so a test can act while the command stands at that step. Point: cleanup.item (before each item).
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function faultPoint(name: string): void {
  if (process.env.ORCHARD_FAULT_AT === name) process.kill(process.pid, "SIGKILL");
}

let pauses = 0;

export async function pausePoint(name: string): Promise<void> {
  const dir = process.env.ORCHARD_PAUSE_DIR;
  if (process.env.ORCHARD_PAUSE_AT !== name || !dir) return;
  writeFileSync(join(dir, `${name}.${process.pid}.${++pauses}`), "");
  while (existsSync(join(dir, "hold"))) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Files git writes before a checkout fault kills it (ORCHARD_FAULT_FILES, default 3). */
const filesBeforeKill = (): number => Number(process.env.ORCHARD_FAULT_FILES) || 3;

/**
 * A fault *inside* a git checkout, which Orchard cannot interrupt from its own code: git config
 * for the one git call, a smudge filter on every path that lets git write a few files and then
 * SIGKILLs this process and git's whole process group (`kill -9 <pid> 0`) — a crash of the host
 * process with git half-way through writing the files. Null unless ORCHARD_FAULT_AT names `name`.
 */
export function faultCheckoutConfig(name: string): Record<string, string> | null {
  if (process.env.ORCHARD_FAULT_AT !== name) return null;
  const dir = mkdtempSync(join(tmpdir(), "orchard-fault-"));
  const count = join(dir, "count");
  writeFileSync(join(dir, "attributes"), "* filter=orchard-fault\n");
  const smudge = `n=$(cat '${count}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '${count}'; if [ $n -gt ${filesBeforeKill()} ]; then kill -9 ${process.pid} 0; fi; cat`;
  return { "core.attributesFile": join(dir, "attributes"), "filter.orchard-fault.smudge": smudge };
}
