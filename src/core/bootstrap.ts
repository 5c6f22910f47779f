// Bootstrap (SPEC §6): copy, run, inject context, fingerprint. The foundation records nothing to
// bootstrap; task-backed admission fills this in.
import type { WorktreeRow } from "../registry/index.js";
import type { Ctx } from "./context.js";
import type { BootstrapReport } from "./bootstrap-types.js";

export async function runBootstrap(_ctx: Ctx, row: WorktreeRow, _options: { enabled: boolean }): Promise<{ row: WorktreeRow; report: BootstrapReport; message?: string }> {
  return { row, report: { status: "skipped", fingerprint: null, steps: [] } };
}
