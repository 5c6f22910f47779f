// The per-repo mutation lock (SPEC §4.3): a file in the common dir created with O_EXCL, holding
// the owner's pid, start time and host. git alone is not safe against concurrent `worktree add`
// of one branch or one path, so every mutation of a repo runs inside this lock. Reads take none.
// A lock whose owner is dead on this host (or whose pid was reused) is stale and may be stolen;
// stealing itself is serialised by a short-lived second lock so two stealers cannot both win.
import { openSync, closeSync, writeSync, readFileSync, unlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import { AsyncLocalStorage } from "node:async_hooks";
import { HOST, compareStartTime, pidState, readStartTime } from "./process.js";
import { failure } from "./errors.js";

interface LockBody {
  pid: number;
  startTime: string | null;
  host: string;
  at: string;
}

const LOCK_NAME = "orchard-mutation.lock";
const STEAL_STALE_MS = 10_000;

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

function readBody(path: string): { raw: string; body: LockBody | null } | null {
  try {
    const raw = readFileSync(path, "utf8");
    try {
      return { raw, body: JSON.parse(raw) as LockBody };
    } catch {
      return { raw, body: null }; // a lock being written right now: not stale yet
    }
  } catch {
    return null; // vanished between the failed create and the read
  }
}

async function isStale(body: LockBody | null): Promise<boolean> {
  if (!body || body.host !== HOST) return false;
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

export interface MutationLock {
  release(): void;
}

export async function acquireMutationLock(commonDir: string, options: { timeoutMs?: number } = {}): Promise<MutationLock> {
  const path = join(commonDir, LOCK_NAME);
  const body = JSON.stringify({ pid: process.pid, startTime: await readStartTime(process.pid), host: HOST, at: new Date().toISOString() } satisfies LockBody);
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let delay = 5;
  for (;;) {
    if (tryCreate(path, body)) return { release: () => releaseIfOurs(path, body) };
    const held = readBody(path);
    if (held && (await isStale(held.body))) {
      await trySteal(path, held.raw);
      continue;
    }
    if (Date.now() > deadline)
      throw failure(
        "repo_busy",
        `another orchard holds the mutation lock ${path}${held?.body ? ` (pid ${held.body.pid} on ${held.body.host})` : ""}; retry later`,
      );
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 200);
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

export async function withMutationLock<T>(commonDir: string, fn: () => Promise<T>): Promise<T> {
  const store = held.getStore();
  if (store?.has(commonDir)) return fn();
  const lock = await acquireMutationLock(commonDir);
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
