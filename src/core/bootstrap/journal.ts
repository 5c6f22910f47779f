// The bootstrap journal: `orchard-bootstrap.json` in a worktree's admin dir says that a bootstrap
// of that worktree began and has not ended, and which Orchard process runs it (pid, start time,
// host). It is written before the worktree's row becomes usable (create, recycle) and removed
// only after the fingerprints are recorded, so a crash anywhere in between leaves it behind with
// a dead owner: the next `add` of the handle re-runs the bootstrap instead of handing out the
// worktree as bootstrapped (SPEC §4.10). While its owner runs, a concurrent `add` waits for it.
// A bootstrap whose commands were skipped as untrusted ends with the journal saying so
// (`untrusted`): it is owed, and runs at the next adoption or `orchard bootstrap` once trusted.
import { rmSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { readPlainText, writeFileAtomic } from "../shared/files.js";
import { HOST, compareStartTime, pidState, readStartTime } from "../ownership/index.js";

export const BOOTSTRAP_JOURNAL = "orchard-bootstrap.json";

interface JournalBody {
  /** `config_untrusted`: ended, its commands skipped as untrusted. */
  skipped?: "config_untrusted";
  pid: number | null;
  startTime: string | null;
  host: string;
  at: string;
}

/** `running`: its owner still runs (or cannot be proven gone); `interrupted`: it died or gave up; `untrusted`: ended with its commands skipped. */
export type BootstrapJournalState =
  { state: "none" } | { state: "interrupted" } | { state: "untrusted" } | { state: "running"; pid: number | null; host: string };

function write(admin: string, body: JournalBody): void {
  writeFileAtomic(join(admin, BOOTSTRAP_JOURNAL), JSON.stringify(body) + "\n");
}

/** This process begins (or takes over) the bootstrap of the worktree of `admin`. */
export async function beginBootstrapJournal(admin: string): Promise<void> {
  write(admin, { pid: process.pid, startTime: await readStartTime(process.pid), host: HOST, at: new Date().toISOString() });
}

/** The bootstrap is unfinished and nobody runs it (a repair, an undone recycle, a step that threw). */
export function markBootstrapInterrupted(admin: string): void {
  write(admin, { pid: null, startTime: null, host: HOST, at: new Date().toISOString() });
}

/** The bootstrap ended with its repository commands skipped (config_untrusted): owed until trusted. */
export function markBootstrapUntrusted(admin: string): void {
  write(admin, { skipped: "config_untrusted", pid: null, startTime: null, host: HOST, at: new Date().toISOString() });
}

export function endBootstrapJournal(admin: string): void {
  rmSync(join(admin, BOOTSTRAP_JOURNAL), { force: true });
}

export async function readBootstrapJournal(admin: string): Promise<BootstrapJournalState> {
  const file = join(admin, BOOTSTRAP_JOURNAL);
  if (!lstatSync(file, { throwIfNoEntry: false })) return { state: "none" };
  const text = readPlainText(file, { follow: false }) ?? ""; // not a plain file: not ours, nothing runs under it
  let body: Partial<JournalBody> | null;
  try {
    body = JSON.parse(text) as Partial<JournalBody> | null;
  } catch {
    return { state: "interrupted" }; // written by rename, so never half-written by us: nobody's bootstrap runs under it
  }
  if (body?.skipped === "config_untrusted") return { state: "untrusted" };
  const pid = typeof body?.pid === "number" ? body.pid : null;
  if (pid === null) return { state: "interrupted" };
  const host = typeof body?.host === "string" ? body.host : "";
  if (host !== HOST) return { state: "running", pid, host }; // another host's process cannot be proven gone
  const alive = pidState(pid);
  if (alive === "dead") return { state: "interrupted" };
  const recorded = typeof body?.startTime === "string" ? body.startTime : null;
  if (alive === "alive" && recorded !== null) {
    const now = await readStartTime(pid);
    if (now !== null && compareStartTime(recorded, now) === "different") return { state: "interrupted" }; // pid reused
  }
  return { state: "running", pid, host };
}
