// The processes Orchard starts that are not git queries: a repository's shell commands (bootstrap,
// runtime probe), with the same timeout, group kill and hardened environment, and work that may
// outlive the command (the trash's purge). Spawned here, beside the one runner (run.ts).
import { spawn } from "node:child_process";
import { hardenedEnv } from "./env.js";
import { runProcess, type ProcessResult } from "./run.js";

/**
 * Starts `program args` detached (its own process group, no stdio) and does not wait for it: work
 * that may outlive the command, such as deleting the trash. Returns its pid (null when the spawn
 * failed at once; the work is then left for the next command).
 */
export function spawnDetached(program: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): number | null {
  try {
    const child = spawn(program, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: "ignore", windowsHide: true });
    child.on("error", () => {
      // the background work did not start: whatever it was to do waits for the next command
    });
    child.unref();
    return child.pid ?? null;
  } catch {
    return null; // e.g. EAGAIN: the same as a background process killed at once
  }
}

/** Runs a repository-provided shell command (bootstrap, runtime probe) with the same guarantees. */
export function runShell(
  command: string,
  options: { cwd: string; timeoutMs: number; env?: Record<string, string>; signal?: AbortSignal | undefined },
): Promise<ProcessResult> {
  const env = hardenedEnv({ read: false, ...(options.env ? { extra: options.env } : {}) });
  return runProcess(command, [], { cwd: options.cwd, env, timeoutMs: options.timeoutMs, shell: true, ...(options.signal ? { signal: options.signal } : {}) });
}
