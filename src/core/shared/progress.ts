// Progress of a long command, for whoever shows it (the CLI draws one line on a terminal). The
// library never prints: a caller hands a listener to `withProgress`, and the steps run inside it
// report through `reportProgress`, which does nothing when nobody listens. The listener travels
// with the async call chain (AsyncLocalStorage), so concurrent calls of one library object each
// report to their own caller.
import { AsyncLocalStorage } from "node:async_hooks";
import { basename } from "node:path";

export interface ProgressEvent {
  /** What is being done, e.g. "reading worktrees", "measuring disk". */
  phase: string;
  done: number;
  total: number;
  /** The worktree just finished: its handle, or a foreign worktree's directory name (never a whole path). */
  label?: string;
  /** Said once before a command acts: how many of each action it will take (cleanup run's round `round`). */
  intent?: { round: number; actions: Readonly<Record<string, number>>; bounded: boolean };
}

export type ProgressReporter = (event: ProgressEvent) => void;

const listeners = new AsyncLocalStorage<ProgressReporter>();

export function withProgress<T>(reporter: ProgressReporter | undefined, fn: () => Promise<T>): Promise<T> {
  return reporter ? listeners.run(reporter, fn) : fn();
}

export function reportProgress(event: ProgressEvent): void {
  const listener = listeners.getStore();
  if (!listener) return;
  try {
    listener(event);
  } catch {
    // a listener that fails (a closed terminal) never fails the command it watches
  }
}

/** A counter over `total` items of one phase: call it as each item finishes. */
export function progressCounter(phase: string, total: number): (item?: { handle?: string | null; path?: string }) => void {
  let done = 0;
  if (listeners.getStore()) reportProgress({ phase, done, total });
  return (item) => {
    done++;
    const label = item?.handle ?? (item?.path ? basename(item.path) : undefined);
    reportProgress({ phase, done, total, ...(label ? { label } : {}) });
  };
}
