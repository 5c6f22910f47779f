// The worker's side of executeWorktreeWaveCleanupPlan: the plan's entries go to Orchard's
// `cleanup-wave` as its manifest (a file of its own in a private temporary directory), into the
// checkout GSD merges into — the worktree `repoRoot` is in. Orchard's wave result already has GSD's
// shape (`{ok, action, reason, entries, pending}`); each entry gets GSD's `stderr` ("" when
// Orchard has none). A wave Orchard refuses before any entry (the target detached or dirty) is
// `cleanup_blocked` with every entry pending and Orchard's `reasons`; a manifest Orchard finds
// invalid is `skip`/`invalid_manifest` with the entries it refused in `invalid`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { locateRepo } from "../core/shared/repo/repo.js";
import { readWorktrees } from "../git/read.js";
import { realOrAbsolute } from "../core/shared/repo/paths.js";
import type { OrchardOf, ManifestEntry, WavePlan, WaveRunResult } from "./types.js";

/** The linked worktree holding `repoRoot`, when it is not the primary (Orchard's `into`). */
async function targetOf(repoRoot: string): Promise<string | undefined> {
  if ((await locateRepo(repoRoot)).inPrimary) return undefined;
  const here = realOrAbsolute(repoRoot);
  const holders = (await readWorktrees(repoRoot)).filter((e) => here === e.path || here.startsWith(`${e.path}/`));
  return holders.sort((a, b) => b.path.length - a.path.length)[0]?.path;
}

export async function runWave(orchard: OrchardOf, plan: WavePlan): Promise<WaveRunResult> {
  const lib = await orchard(plan.repoRoot);
  const dir = mkdtempSync(join(tmpdir(), "orchard-gsd-wave-"));
  const manifest = join(dir, "manifest.json");
  writeFileSync(manifest, JSON.stringify(plan.entries), { mode: 0o600 });
  try {
    const into = await targetOf(plan.repoRoot);
    const result = await lib.cleanupWave({ repo: plan.repoRoot, manifest, ...(into ? { into } : {}) });
    const run = result.result;
    const pending: ManifestEntry[] = run.pending.map(({ agent_id, worktree_path, branch, expected_base }) => ({
      agent_id,
      worktree_path,
      branch,
      expected_base,
    }));
    return {
      ok: run.ok,
      action: run.action,
      reason: run.reason,
      entries: run.entries.map((e) => ({ ...e, stderr: "stderr" in e && e.stderr ? e.stderr : "" })),
      pending,
      ...(result.reasons ? { reasons: result.reasons } : {}),
      ...(result.notes ? { notes: result.notes } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
