// Trust (SPEC §6, v4 §4.1): the commands of `bootstrap.run` and `runtime.probe` come from the
// repository, so they run only after `orchard trust` recorded the hash of the config as it is now
// (any edit needs a new trust), or when the environment says ORCHARD_TRUST=1. Trust covers what
// runs: it also records each program setting the owner sees in the repository's common config
// (key and value); a setting added or changed later, from any source, stays off until trusted
// again (shared/program-policy.ts). An agent cannot grant it: `orchard trust` refuses a caller
// that works inside a linked worktree of the repository or holds a lease (`trust_from_agent`).
// Ancestry cannot tell an agent's detached process (`(cd primary; orchard trust) & disown`) from
// the owner, so trust also needs a person (SPEC v5): a terminal on stdin, or `--yes`, which the
// docs reserve to a person typing it (`trust_needs_person`).
import type { Ctx } from "../shared/context.js";
import { usageError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { commonConfigPrograms, programTrustKey } from "../shared/program-policy.js";
import { readWorktrees } from "../../git/read.js";
import { isInside } from "../shared/context.js";
import { readAncestors, readProcessCwds } from "../ownership/index.js";
import { realOrAbsolute } from "../shared/repo/paths.js";

export { isTrusted } from "../shared/program-policy.js";

export type TrustResult =
  | {
      ok: true;
      /** The hash of `.orchard.json` now trusted; null when the repository has none (only its program settings are). */
      configHash: string | null;
      source: string | null;
      trusted: true;
      /** The program settings of the common config now trusted to run. */
      programs: { key: string; value: string }[];
    }
  | { ok: false; trusted: false; reasons: Reason[] };

/** The linked worktree the caller (this process or a parent of it) works in, or a lease it holds; null when neither. */
async function agentCaller(ctx: Ctx): Promise<string | null> {
  const chain = [process.pid, ...(await readAncestors())];
  const rows = await ctx.registry.worktrees.current(ctx.repo.identity);
  const leased = rows.find((r) => r.pid !== null && chain.includes(r.pid));
  if (leased) return `the process ${leased.pid} holds the lease on ${leased.handle}`;
  const linked = (await readWorktrees(ctx.repo.primary)).slice(1).map((e) => realOrAbsolute(e.path));
  const cwds = await readProcessCwds();
  const dirs = chain.map((pid) => (pid === process.pid ? realOrAbsolute(process.cwd()) : cwds?.get(pid))).filter((d): d is string => d !== undefined);
  for (const dir of dirs) {
    const inside = linked.find((path) => dir === path || isInside(path, dir));
    if (inside) return `it runs inside the worktree ${inside}`;
  }
  return null;
}

export interface TrustOptions {
  /** A person confirms without a terminal on stdin (CLI `--yes`). */
  yes?: boolean;
}

export async function trust(ctx: Ctx, options: TrustOptions = {}): Promise<TrustResult> {
  const { hash, source } = ctx.repo.config;
  const programs = await commonConfigPrograms(ctx.repo);
  if ((hash === null || source === null) && programs.length === 0)
    throw usageError("no_config", `${ctx.repo.primary} has no .orchard.json (or ORCHARD_CONFIG) and its config names no program; there is nothing to trust`);
  const agent = await agentCaller(ctx);
  if (agent) return { ok: false, trusted: false, reasons: [reason("trust_from_agent", { why: agent })] };
  if (options.yes !== true && process.stdin.isTTY !== true)
    return { ok: false, trusted: false, reasons: [reason("trust_needs_person", { why: "stdin is not a terminal and --yes was not given" })] };
  await ctx.registry.write(async () => {
    if (hash !== null) await ctx.registry.trust.save(ctx.repo.identity, hash);
    for (const p of programs) await ctx.registry.trust.save(ctx.repo.identity, programTrustKey(p));
  });
  return { ok: true, configHash: hash, source, trusted: true, programs: programs.map(({ key, value }) => ({ key, value })) };
}
