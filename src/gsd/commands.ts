// GSD's two command entry points, as gsd-tools runs them: JSON on stdout, a warning line on
// stderr, `process.exitCode` set as GSD sets it (1 when the wave is not ok, 2 for a missing
// --manifest); the reaper always exits 0, as GSD's does.
import { resolve } from "node:path";
import { readPlainText } from "../core/shared/files.js";
import { planWorktreeWaveCleanup } from "./manifest.js";
import { executeWorktreeWaveCleanupPlan, OrchardUnavailable, reapOrphanWorktrees } from "./api.js";
import type { ReapResultEntry } from "./types.js";

export function cmdWorktreeCleanupWave(cwd: string, args: string[] = []): void {
  const flag = args.indexOf("--manifest");
  const manifestPath = flag >= 0 ? args[flag + 1] : "";
  if (!manifestPath) {
    process.stderr.write("Usage: worktree cleanup-wave --manifest <path>\n");
    process.exitCode = 2;
    return;
  }
  const file = resolve(cwd, manifestPath);
  const manifest = readPlainText(file, 1024 * 1024); // a FIFO or /dev/zero there never hangs the caller
  if (manifest === null) {
    const error = `${file} cannot be read as a regular file of at most 1 MiB`;
    process.stdout.write(`${JSON.stringify({ ok: false, reason: "manifest_read_failed", error }, null, 2)}\n`);
    process.exitCode = 1;
    return;
  }
  const plan = planWorktreeWaveCleanup(cwd, manifest);
  const result = executeWorktreeWaveCleanupPlan(plan);
  const response = {
    ok: result.ok,
    plan: { action: plan.action, discovery: plan.discovery, reason: plan.reason, entries: plan.entries.length },
    result,
  };
  process.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
  if (!result.ok) process.exitCode = 1;
}

export function cmdWorktreeReapOrphans(cwd: string): void {
  let entries: ReapResultEntry[];
  try {
    entries = reapOrphanWorktrees(cwd);
  } catch (error) {
    // loudly: "ok: true, reaped: 0" would say the sweep ran and found nothing
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`[gsd] worktree.reap-orphans failed: ${message}\n`);
    const code = error instanceof OrchardUnavailable ? error.code : "internal";
    process.stdout.write(`${JSON.stringify({ ok: false, reaped: 0, entries: [], error: { code, message } }, null, 2)}\n`);
    return;
  }
  const skipped = entries.filter((e) => e.status === "skipped").length;
  if (skipped > 0) process.stderr.write(`[gsd] worktree.reap-orphans: ${skipped} orphan(s) skipped (run with DEBUG=1 for details)\n`);
  if (skipped > 0 && process.env.DEBUG)
    for (const e of entries.filter((x) => x.status === "skipped")) process.stderr.write(`[gsd]   ${e.path}: ${e.reason}${e.detail ? ` (${e.detail})` : ""}\n`);
  process.stdout.write(`${JSON.stringify({ ok: true, reaped: entries.filter((e) => e.status === "reaped").length, entries }, null, 2)}\n`);
}
