// Sculptor (Imbue), "worktree" workspaces: `~/.sculptor/workspaces/<id>/code` (from its docs:
// docs/help/workspaces.md). Its workspaces live in its SQLite database: tracked "unknown".
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

export const sculptor: HarnessProbe = {
  name: "sculptor",
  match(w, roots) {
    const segments = below(w.path, roots.sculptor);
    if (segments.length !== 2 || segments[1] !== "code") return null;
    return { name: "sculptor", session: segments[0] as string, reads: [], judge: () => ({ tracked: w.missing ? false : "unknown" }) };
  },
};
