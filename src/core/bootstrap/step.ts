// One bootstrap step, timed: its value, or a failed step carrying the exception's message.
import type { BootstrapStep } from "../shared/bootstrap-report.js";
import { msNow } from "../../git/result.js";

export async function step<T>(
  steps: BootstrapStep[],
  name: string,
  fn: () => Promise<T>,
  describe: (value: T) => Partial<BootstrapStep> = () => ({}),
): Promise<T | undefined> {
  const started = msNow();
  try {
    const value = await fn();
    steps.push({ name, status: "ran", ms: Math.round(msNow() - started), ...describe(value) });
    return value;
  } catch (error) {
    steps.push({ name, status: "failed", ms: Math.round(msNow() - started), reason: (error as Error).message });
    return undefined;
  }
}

export function skipAll(steps: BootstrapStep[], names: readonly string[], reason: string): void {
  for (const name of names) steps.push({ name, status: "skipped", ms: 0, reason });
}
