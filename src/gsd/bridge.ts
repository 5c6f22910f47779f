// GSD calls its worktree functions synchronously; Orchard's library is asynchronous. The bridge
// runs the library in one worker thread of this process (started on the first call, unref'd so it
// never keeps the process alive) and blocks the caller on Atomics.wait until the worker answers:
// no command line per call, one warm Orchard for every call of the process. The worker shares this
// process's environment (SHARE_ENV), so ORCHARD_HOME and git's variables set later still count.
import { createRequire } from "node:module";
import type { MessagePort, Worker } from "node:worker_threads";
import type { Answer, OrchardErrorView } from "./types.js";

/** What the worker does for a call: one of worker.ts's handlers, by name, with its arguments. */
export interface Call {
  method: string;
  args: unknown[];
  /** The workspace to use (configure()); absent: ORCHARD_HOME / ORCHARD_REGISTRY, else ~/.orchard. */
  workspace: WorkspaceChoice;
}

export interface WorkspaceChoice {
  home?: string;
  registry?: string;
}

/** How long a call other than the wave may take (ORCHARD_GSD_TIMEOUT_MS overrides it; docs/gsd.md). */
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Calls that run as long as git takes, whatever ORCHARD_GSD_TIMEOUT_MS says: a wave of a thousand
 * merges is long, and cutting the caller's wait would answer "nothing done" while the worker goes on
 * merging. Each git call inside has its own timeout (src/git/run.ts), so the call still ends.
 */
const UNBOUNDED = new Set(["runWave"]);

/** How long a new worker may take to load the library before the call fails (it cannot report a failed start while the caller blocks). */
const START_TIMEOUT_MS = 60 * 1000;

let worker: { port: MessagePort; thread: Worker; ready: Int32Array } | null = null;

/** node:worker_threads, loaded by the first call that needs the worker (the read-only calls never do: fast.ts). */
let threads: typeof import("node:worker_threads") | null = null;
const workerThreads = (): typeof import("node:worker_threads") =>
  (threads ??= createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads"));
let choice: WorkspaceChoice = {};

/** The workspace every later call uses (one for every repository, as Orchard's own commands). */
export function configure(options: WorkspaceChoice = {}): void {
  choice = { ...(options.home ? { home: options.home } : {}), ...(options.registry ? { registry: options.registry } : {}) };
}

/** The workspace configure() chose, if any (fast.ts keeps its proofs there). */
export const configuredHome = (): string | undefined => choice.home;

function start(): { port: MessagePort; thread: Worker; ready: Int32Array } {
  const wt = workerThreads();
  const { port1, port2 } = new wt.MessageChannel();
  const ready = new Int32Array(new SharedArrayBuffer(4));
  // the worker gets this process's Node options but not those of a string script (`node --input-type=… -e`)
  const execArgv = process.execArgv.filter((a) => !/^--(input-type|eval|print)\b|^-[ep]$/.test(a));
  const thread = new wt.Worker(new URL("./worker.js", import.meta.url), {
    workerData: { port: port2, ready },
    transferList: [port2],
    env: wt.SHARE_ENV,
    execArgv,
  });
  thread.unref();
  port1.unref();
  thread.on("error", () => {
    worker = null; // the next call starts a new one; this call's wait ends at its deadline
  });
  return { port: port1, thread, ready };
}

/** Runs `method` in the worker and returns its answer; an Orchard failure comes back as `{ok: false, error}`. */
export function callSync<T>(method: string, args: unknown[]): Answer<T> {
  worker ??= start();
  if (Atomics.wait(worker.ready, 0, 0, START_TIMEOUT_MS) === "timed-out") {
    void worker.thread.terminate();
    worker = null;
    return { ok: false, error: { code: "worker_failed", message: `Orchard's worker did not start within ${START_TIMEOUT_MS} ms` } };
  }
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const call: Call = { method, args, workspace: choice };
  try {
    worker.port.postMessage({ call, signal });
  } catch (error) {
    // a function, symbol or class instance among the arguments cannot cross to the worker (DataCloneError)
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: {
        code: "invalid_argument",
        message: `${method}: an argument is not plain data Orchard can receive (${why}); pass plain objects, strings and numbers`,
      },
    };
  }
  const timeout = UNBOUNDED.has(method) ? Infinity : Number(process.env.ORCHARD_GSD_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  if (Atomics.wait(signal, 0, 0, timeout) === "timed-out") {
    void worker.thread.terminate();
    worker = null;
    return { ok: false, error: { code: "timed_out", message: `Orchard did not answer ${method} within ${timeout} ms` } };
  }
  const message = workerThreads().receiveMessageOnPort(worker.port);
  if (!message) return { ok: false, error: { code: "internal", message: `Orchard's worker answered ${method} with nothing` } };
  return message.message as Answer<T>;
}

/** The error of a failed answer, as GSD-shaped results carry it. */
export const errorOf = (answer: { ok: false; error: OrchardErrorView }): OrchardErrorView => answer.error;
