// The one clock of the test suite. Every timeout a test (or vitest.config.ts) sets is derived from
// ORCHARD_TEST_TIME_SCALE through `scaled`, so a slow or busy machine is handled by raising one
// number, never by editing tests. Timeouts are only ever upper bounds for a hang: no test waits for
// a fixed time, and no assertion depends on how fast the machine is; waits poll a condition.
//
// The default scale (3, so 180 s a test; 6 where vitest.config.ts finds the machine busy as the run
// starts) lets the suite pass on a busy 2-core machine. Measured on
// one with two CPU-bound loops on top of other jobs (load average ~20): the slowest test took ~80 s
// and each kill -9 moment of test/e2e/cleanup.test.ts ~45 s (~8 s idle).
//
// Deliberately tiny timeouts that a test passes to the product to *provoke* a timeout (a 1s
// bootstrap.timeout around `sleep`, a 150 ms lock wait) are not scaled: they are inputs, not budgets.

const DEFAULT_SCALE = 3;

export function readScale(): number {
  const raw = process.env.ORCHARD_TEST_TIME_SCALE;
  if (raw === undefined || raw.trim() === "") return DEFAULT_SCALE;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`ORCHARD_TEST_TIME_SCALE must be a positive number, not ${JSON.stringify(raw)}`);
  return value;
}

/** The factor applied to every test timeout (ORCHARD_TEST_TIME_SCALE, default 3). */
export const TIME_SCALE = readScale();

/** A budget of `ms` on an idle fast machine, scaled for this one. */
export function scaled(ms: number): number {
  return Math.ceil(ms * TIME_SCALE);
}

/** One test or hook, end to end (vitest's testTimeout and hookTimeout). */
export const TEST_TIMEOUT_MS = scaled(60_000);

/**
 * One child process a test starts and waits for (a CLI call, a script). Below the test's own
 * timeout, so a hung child fails with its output rather than as a bare test timeout.
 */
export const PROCESS_TIMEOUT_MS = scaled(40_000);

/** A `waitFor` condition: something another process is about to do (start, lock, die). */
export const WAIT_TIMEOUT_MS = scaled(20_000);

/** The same budget as a duration string for the product's config (`bootstrap.timeout: "120s"`). */
export function durationText(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
}
