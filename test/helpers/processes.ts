// Real processes in the states a holder can be in: working inside a directory, and exited but not
// reaped (a zombie). No fake process table: each is a process of this machine.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { waitFor } from "./scenario.js";

/** The state letter of /proc/<pid>/stat (Linux), or null when the process is gone. */
export function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? null;
  } catch {
    return null;
  }
}

function commandOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return null;
  }
}

/**
 * A process that runs until `kill()` turns it into a zombie: `sh` starts it in the background and
 * then execs `sleep`, which never waits for children, so the killed child stays in state Z until
 * `stop()` kills its parent (init then reaps it).
 */
export async function zombieToBe(): Promise<{ pid: number; kill: () => Promise<void>; stop: () => void }> {
  const parent = spawn("sh", ["-c", "sleep 100000 & echo $!; exec sleep 100000"], { stdio: ["ignore", "pipe", "ignore"] });
  const pid = await new Promise<number>((resolve) => parent.stdout.once("data", (d: Buffer) => resolve(Number(String(d).trim()))));
  // killed before `sh` has exec'd, the child would be reaped by sh itself
  await waitFor(() => commandOf(parent.pid as number) === "sleep", "the parent to exec sleep");
  return {
    pid,
    kill: async () => {
      process.kill(pid, "SIGKILL");
      await waitFor(() => {
        const state = procState(pid);
        if (state === null) throw new Error(`pid ${pid} was reaped instead of staying a zombie`);
        return state === "Z";
      }, `pid ${pid} to become a zombie`);
    },
    stop: () => {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone: nothing to stop
      }
      parent.kill("SIGKILL");
    },
  };
}
