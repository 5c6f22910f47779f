// Waiting for a bootstrap another Orchard process is running on the exact handle (its journal
// names a live owner): the worktree is handed out only once its bootstrap has ended, the way the
// process that created it hands it out. The wait is bounded by what that bootstrap may take.
import type { Ctx } from "../shared/context.js";
import { failure } from "../shared/errors.js";
import { parseDuration } from "../shared/input/duration.js";
import { DEFAULT_BOOTSTRAP_TIMEOUT_MS, readBootstrapJournal } from "../bootstrap/index.js";

/** The exact handle's bootstrap is running in another process: `add` waits, then decides again. */
export interface BootstrapWait {
  /** The admin dir whose bootstrap journal names a live owner. */
  waitFor: string;
  pid: number | null;
  host: string;
}

const POLL_MS = 100;

/** Every command of `bootstrap.run` and the probes may take `bootstrap.timeout`; the other steps as much again, twice. */
function bootstrapBoundMs(ctx: Ctx): number {
  const config = ctx.repo.config.config;
  const perCommand = config.bootstrap?.timeout ? parseDuration(config.bootstrap.timeout) : DEFAULT_BOOTSTRAP_TIMEOUT_MS;
  const commands = (config.bootstrap?.run ?? []).length + (config.runtime?.probe ?? []).length;
  return perCommand * (commands + 2);
}

export async function waitForBootstrap(ctx: Ctx, wait: BootstrapWait): Promise<void> {
  const deadline = Date.now() + bootstrapBoundMs(ctx);
  while ((await readBootstrapJournal(wait.waitFor)).state === "running") {
    if (Date.now() > deadline)
      throw failure("bootstrap_running", `the worktree is still being bootstrapped by pid ${wait.pid ?? "?"} on ${wait.host}; try again later`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
