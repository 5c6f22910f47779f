// Trust (SPEC §6): the commands of `bootstrap.run` and `runtime.probe` come from the repository,
// so they run only after `orchard trust` recorded the hash of the config as it is now (any edit
// needs a new trust), or when the environment says ORCHARD_TRUST=1.
import type { Ctx } from "../shared/context.js";
import { usageError } from "../shared/errors.js";

export { isTrusted } from "../shared/program-policy.js";

export interface TrustResult {
  ok: true;
  configHash: string;
  source: string;
  trusted: true;
}

export async function trust(ctx: Ctx): Promise<TrustResult> {
  const { hash, source } = ctx.repo.config;
  if (hash === null || source === null)
    throw usageError("no_config", `${ctx.repo.primary} has no .orchard.json (or ORCHARD_CONFIG); there is nothing to trust`);
  await ctx.registry.write(async () => await ctx.registry.trust.save(ctx.repo.identity, hash));
  return { ok: true, configHash: hash, source, trusted: true };
}
