// runProcess's way of running a process to its end on this thread (run.ts, once a command said
// waitForEachProcess): for a command whose processes run one after another anyway (`orchard
// remove`'s five gits), spawnSync hands the output back as buffers, without the pipes' sockets and
// streams Node compiles on their first use (≈ 10 ms of a command line's CPU), and without an event
// loop turn per chunk. What stays as runProcess has it: the same program, argv, hardened env and
// input, its own process group (session), SIGKILL at the timeout and past the output limit, and
// then the rest of its group too. What differs: while it runs, nothing else of this process does
// (a SIGINT or SIGTERM handler of ours runs once it has ended, at the latest at its timeout), and
// it cannot be aborted by a signal of the caller's (run.ts keeps those calls asynchronous).
import { spawnSync, type SpawnSyncOptionsWithBufferEncoding } from "node:child_process";

export interface Waited {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  timedOut: boolean;
}

/** Runs `file argv` to its end. Throws where it could not start, as runProcess rejects then (spawn's `error`). */
export function spawnWaited(
  file: string,
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; input: Buffer | string; shell: boolean; maxOutput: number },
): Waited {
  const detached = process.platform !== "win32";
  // `detached` (a session of its own, as runProcess's spawn) is honoured by spawnSync, not in its typings
  const spawnOptions: SpawnSyncOptionsWithBufferEncoding & { detached: boolean } = {
    cwd: options.cwd,
    env: options.env,
    detached,
    shell: options.shell,
    input: options.input,
    timeout: options.timeoutMs,
    killSignal: "SIGKILL",
    maxBuffer: options.maxOutput,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  };
  const r = spawnSync(file, argv, spawnOptions);
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ETIMEDOUT" || code === "ENOBUFS") {
    // spawnSync killed the process it started; what that one started goes with its group, as
    // run.ts's killGroup has it (the group outlives its leader while a member is left, so its id is not reused)
    if (detached && r.pid > 0)
      try {
        process.kill(-r.pid, "SIGKILL");
      } catch {
        // nothing left in it
      }
  } else if (r.error) throw r.error;
  return {
    exitCode: r.status,
    signal: r.signal,
    stdout: r.stdout ?? Buffer.alloc(0),
    stderr: r.stderr ?? Buffer.alloc(0),
    timedOut: code === "ETIMEDOUT",
  };
}
