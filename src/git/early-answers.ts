// The answers of read-only git queries started before they were asked (early.ts, run.ts
// startEarly and startEarlyBatch), kept by argv and cwd for the first git() call that asks
// exactly that query; taken once.
import type { ProcessResult } from "./result.js";

const early = new Map<string, Promise<ProcessResult>>();
/** The early answers git has given already (a process that answered was held by no file). */
const answered = new WeakSet<Promise<ProcessResult>>();
const earlyKey = (args: readonly string[], cwd: string): string => JSON.stringify([cwd, ...args]);

/** An early answer, kept for the git() call that asks exactly it. */
export function remember(args: readonly string[], cwd: string, result: Promise<ProcessResult>): Promise<ProcessResult> {
  result.then(
    () => answered.add(result),
    () => answered.add(result),
  ); // taken by git(), which reports it, or dropped
  early.set(earlyKey(args, cwd), result);
  return result;
}

/** Whether an early answer to exactly this query is there to be taken. */
export function earlyPending(args: readonly string[], cwd: string): boolean {
  return early.has(earlyKey(args, cwd));
}

/** Forgets the early queries nobody took: a later call asks git anew. */
export function dropEarly(): void {
  early.clear();
}

/** The early answer to `args` in `cwd`, taken (once); `plain`: a call with no input, env or timeout of its own. */
export function takeEarly(args: readonly string[], cwd: string, plain: boolean): Promise<ProcessResult> | undefined {
  if (early.size === 0 || !plain) return undefined;
  const key = earlyKey(args, cwd);
  const started = early.get(key);
  early.delete(key);
  return started;
}

/** Whether the early answer to exactly this query is there and git has given it already (no file can have held that process). */
export function earlyAnswered(args: readonly string[], cwd: string, plain: boolean): boolean {
  if (early.size === 0 || !plain) return false;
  const started = early.get(earlyKey(args, cwd));
  return started !== undefined && answered.has(started);
}
