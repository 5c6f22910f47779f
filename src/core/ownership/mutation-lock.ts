// The per-repo mutation lock (SPEC §4.3): a file in the common dir created with O_EXCL, holding
// the owner's pid, start time and host. git alone is not safe against concurrent `worktree add`
// of one branch or one path, so every mutation of a repo runs inside this lock. Reads take none.
// A lock whose owner is dead on this host (or whose pid was reused) is stale and may be stolen;
// stealing itself is serialised by a short-lived second lock so two stealers cannot both win.
// An empty or unparseable lock (a kill between create and write leaves one) is stale once it is
// older than UNWRITTEN_STALE_MS: writing the body takes microseconds (SPEC §4.15).
// A caller that finds the lock held leaves a ticket (a file named by its pid) in WAITING_DIR while
// it waits; long work that takes the lock again and again (a cleanup run, item after item) looks
// for live tickets between items and lets the waiter in first (`yieldToWaiters`), so an `add`
// issued during a long cleanup waits for the items in flight, not for the whole run (issue 25).
import { openSync, closeSync, writeSync, unlinkSync, statSync, mkdirSync, readdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { AsyncLocalStorage } from "node:async_hooks";
import { HOST, compareStartTime, pidState, readStartTime } from "./process.js";
import { failure } from "../shared/errors.js";
import { readPlainText } from "../shared/files.js";

interface LockBody {
  pid: number;
  startTime: string | null;
  host: string;
  at: string;
}

const LOCK_NAME = "orchard-mutation.lock";
const WAITING_DIR = "orchard-mutation.waiting";
/** How long a yielding holder waits for an announced waiter to take the free lock (its poll interval is at most 200 ms). */
const YIELD_MAX_MS = 2_000;
const STEAL_STALE_MS = 10_000;
export const UNWRITTEN_STALE_MS = 5_000;

function tryCreate(path: string, body: string): boolean {
  try {
    const fd = openSync(path, "wx");
    try {
      writeSync(fd, body);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

function readBody(path: string): { raw: string; body: LockBody | null; mtimeMs: number } | null {
  try {
    const mtimeMs = statSync(path).mtimeMs;
    const raw = readPlainText(path, { follow: false }) ?? ""; // not a plain file: an unwritten lock, stale in time
    try {
      const body = JSON.parse(raw) as LockBody | null;
      return { raw, body: body && typeof body === "object" && Number.isSafeInteger(body.pid) ? body : null, mtimeMs };
    } catch {
      return { raw, body: null, mtimeMs }; // being written right now, or left unwritten by a kill
    }
  } catch {
    return null; // vanished between the failed create and the read
  }
}

async function isStale(held: { body: LockBody | null; mtimeMs: number }): Promise<boolean> {
  const body = held.body;
  if (!body) return Date.now() - held.mtimeMs > UNWRITTEN_STALE_MS;
  if (body.host !== HOST) return false;
  const state = pidState(body.pid);
  if (state === "dead") return true;
  if (state !== "alive" || body.startTime === null) return false;
  const now = await readStartTime(body.pid);
  return now !== null && compareStartTime(body.startTime, now) === "different";
}

function removeIfOld(path: string, ageMs: number): void {
  try {
    if (Date.now() - statSync(path).mtimeMs > ageMs) unlinkSync(path);
  } catch {
    // already gone
  }
}

async function trySteal(path: string, seen: string): Promise<void> {
  const stealPath = `${path}.steal`;
  removeIfOld(stealPath, STEAL_STALE_MS);
  if (!tryCreate(stealPath, String(process.pid))) return;
  try {
    const again = readBody(path);
    if (again && again.raw === seen) unlinkSync(path);
  } finally {
    unlinkSync(stealPath);
  }
}

function lockBody(startTime: string | null): string {
  return JSON.stringify({ pid: process.pid, startTime, host: HOST, at: new Date().toISOString() } satisfies LockBody);
}

export interface MutationLock {
  release(): void;
}

export async function acquireMutationLock(commonDir: string, options: { timeoutMs?: number } = {}): Promise<MutationLock> {
  const path = join(commonDir, LOCK_NAME);
  const body = lockBody(await readStartTime(process.pid));
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let delay = 5;
  let ticket: string | null = null;
  try {
    for (;;) {
      if (tryCreate(path, body)) return { release: () => releaseIfOurs(path, body) };
      ticket ??= announceWaiter(commonDir);
      await waitOnce();
    }
  } finally {
    if (ticket) removeQuietly(ticket);
  }
  async function waitOnce(): Promise<void> {
    const held = readBody(path);
    if (held && (await isStale(held))) {
      await trySteal(path, held.raw);
      return;
    }
    if (Date.now() > deadline)
      throw failure(
        "repo_busy",
        `another orchard holds the mutation lock ${path}${held?.body ? ` (pid ${held.body.pid} on ${held.body.host})` : ""}; retry later`,
      );
    await sleep(delay + Math.random() * delay);
    // at most ~100 ms between looks: a long run lets a waiter in between items (issue 25 item 2),
    // and each look is one small read
    delay = Math.min(delay * 2, 50);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/** A ticket saying this process waits for the lock; null when it cannot be written (then nobody yields to it). */
function announceWaiter(commonDir: string): string | null {
  try {
    const dir = join(commonDir, WAITING_DIR);
    mkdirSync(dir, { recursive: true });
    const ticket = join(dir, `${process.pid}-${randomBytes(4).toString("hex")}`);
    closeSync(openSync(ticket, "wx"));
    return ticket;
  } catch {
    return null;
  }
}

/** Does another live process of this host wait for the lock on `commonDir`? (A dead waiter's ticket is removed.) */
export function hasMutationWaiters(commonDir: string): boolean {
  const dir = join(commonDir, WAITING_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  for (const name of names) {
    const pid = Number(name.split("-")[0]);
    if (!Number.isSafeInteger(pid)) continue;
    if (pidState(pid) === "dead") removeQuietly(join(dir, name));
    else return true;
  }
  return false;
}

/**
 * Between two holds of a long run: while another process waits and the lock is free, give it the
 * time to take it (a bounded wait: a waiter that never comes does not stall the run). The caller
 * then takes the lock again like anyone, after the waiter's hold.
 */
export async function yieldToWaiters(commonDir: string): Promise<void> {
  const path = join(commonDir, LOCK_NAME);
  const until = Date.now() + YIELD_MAX_MS;
  while (Date.now() < until && hasMutationWaiters(commonDir)) {
    if (readBody(path) !== null) return; // a waiter holds it now: our own acquire queues behind it
    await sleep(10);
  }
}

function releaseIfOurs(path: string, body: string): void {
  const held = readBody(path);
  if (held?.raw === body) unlinkSync(path);
}

// The locks this async chain holds, so nested mutations (a bootstrap step inside `add`) do not
// wait for themselves, while two concurrent calls in one process (an MCP server) still exclude
// each other.
const held = new AsyncLocalStorage<Map<string, MutationLock>>();

let entries = 0;
/** How many times this process has entered a mutation lock: what was read before a change differs from it. */
export const mutationEpoch = (): number => entries;

export async function withMutationLock<T>(commonDir: string, fn: () => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
  entries++;
  const store = held.getStore();
  if (store?.has(commonDir)) return fn();
  const lock = await acquireMutationLock(commonDir, options);
  const chain = new Map(store ?? []);
  chain.set(commonDir, lock);
  try {
    return await held.run(chain, fn);
  } finally {
    if (chain.get(commonDir) === lock) {
      chain.delete(commonDir);
      lock.release();
    }
  }
}

/**
 * Runs `fn` holding the lock when it can be had at once, else without it (never waits: a command
 * that then finds it held waits in its own `withMutationLock`, after its input was checked).
 * `fn` is told which; a lock this chain already holds counts as had.
 */
export async function withMutationLockIfFree<T>(commonDir: string, fn: (locked: boolean) => Promise<T>): Promise<T> {
  const store = held.getStore();
  if (store?.has(commonDir)) return fn(true);
  const path = join(commonDir, LOCK_NAME);
  const adopted = adoptEarlyHold(commonDir);
  const body = adopted ?? lockBody(await readStartTime(process.pid));
  if (adopted === undefined && !tryCreate(path, body)) return fn(false);
  entries++;
  const lock: MutationLock = { release: () => releaseIfOurs(path, body) };
  const chain = new Map(store ?? []);
  chain.set(commonDir, lock);
  try {
    return await held.run(chain, () => fn(true));
  } finally {
    if (chain.get(commonDir) === lock) {
      chain.delete(commonDir);
      lock.release();
    }
  }
}

/** The lock this chain holds on `commonDir` now (a token: the same object while the hold lasts). */
export function heldMutationLock(commonDir: string): MutationLock | undefined {
  return held.getStore()?.get(commonDir);
}

/**
 * Lets go of the lock this chain holds on `commonDir` before the chain ends: for long work that
 * needs no lock (bootstrap commands of a worktree already protected by its git lock and row).
 * A later `withMutationLock` in the same chain acquires it again.
 */
export function releaseMutationLockEarly(commonDir: string): void {
  const store = held.getStore();
  const lock = store?.get(commonDir);
  if (!store || !lock) return;
  store.delete(commonDir);
  lock.release();
}

// The command line's early hold (cli/run.ts): the lock taken before the library has resolved the
// repo, on the common dir a primary's `.git` must be, so git's worktree listing can start at once
// under it. The library's first withMutationLockIfFree on that common dir takes the hold over; a
// hold nobody took over (the input was refused, the repo is elsewhere) is let go at once.
let early: { commonDir: string; body: string } | null = null;
let onMismatch: (() => void) | null = null;

/**
 * Takes the lock on `commonDir` for the command that follows, if it is free now (never waits).
 * `mismatch`: what to undo when the command's repo turns out to have another common dir (the
 * answers git gave under this hold are then not under the hold the command takes).
 */
export async function takeEarlyMutationLock(commonDir: string, mismatch: () => void): Promise<boolean> {
  if (early) return false;
  const body = lockBody(await readStartTime(process.pid));
  if (!tryCreate(join(commonDir, LOCK_NAME), body)) return false;
  early = { commonDir, body };
  onMismatch = mismatch;
  process.once("exit", releaseEarlyMutationLock); // a command that ends without taking it over
  return true;
}

/** Lets go of an early hold nobody took over (idempotent). */
export function releaseEarlyMutationLock(): void {
  if (!early) return;
  releaseIfOurs(join(early.commonDir, LOCK_NAME), early.body);
  early = null;
}

/** The early hold's body when it is on `commonDir` (the caller now holds it); any other hold is let go. */
function adoptEarlyHold(commonDir: string): string | undefined {
  if (!early) return undefined;
  if (early.commonDir !== commonDir) {
    releaseEarlyMutationLock();
    onMismatch?.();
    return undefined;
  }
  const body = early.body;
  early = null;
  return body;
}
