// vibe-kanban: `/var/tmp/vibe-kanban/worktrees/<4 hex>-<slug>/<repo>` (the temporary directory's
// `vibe-kanban/worktrees` elsewhere), on `vk/<4 hex>-<slug>`. Its task attempts live in its SQLite
// database, which Orchard does not read: tracked "unknown".
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

const ATTEMPT = /^[0-9a-f]{4}-./;

export const vibeKanban: HarnessProbe = {
  name: "vibe-kanban",
  match(w, roots) {
    const byPath = roots.vibeKanban.map((root) => below(w.path, root)).find((s) => s.length === 2 && ATTEMPT.test(s[0] as string));
    const byBranch = w.branch?.startsWith("vk/") && ATTEMPT.test(w.branch.slice(3)) ? w.branch.slice(3) : undefined;
    const session = byPath?.[0] ?? byBranch;
    if (session === undefined) return null;
    return { name: "vibe-kanban", session, reads: [], judge: () => ({ tracked: w.missing ? false : "unknown" }) };
  },
};
