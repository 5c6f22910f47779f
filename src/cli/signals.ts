// A command line's signals (SPEC v5 §4): no git of ours outlives the Orchard that started it.
import { stopRunning } from "../git/run.js";

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/**
 * For a command line (never a library's host, whose signals are its own): a SIGTERM, SIGINT or
 * SIGHUP first kills every process group of ours — each git, each batch shell with its gits, the
 * kept shell, a bootstrap command — then ends this process by the same signal (a shell sees 128 +
 * its number), so a git waiting on a FIFO never outlives the Orchard that started it.
 */
export function stopChildrenOnSignals(): void {
  if (process.platform === "win32") return;
  for (const [signal, number] of Object.entries(SIGNALS)) {
    const onSignal = (): void => {
      stopRunning(true);
      for (const other of Object.keys(SIGNALS)) process.removeAllListeners(other);
      process.exitCode = 128 + number;
      process.kill(process.pid, signal); // no handler now: the default action ends the process
    };
    process.once(signal, onSignal);
  }
}
