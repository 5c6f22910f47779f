// Cursor (parallel agents, "worktree" mode): `~/.cursor/worktrees/<repo>/<id>`, detached. Cursor
// keeps them in its own state and sweeps the oldest past `cursor.worktreeMaxCount` (default 25),
// whoever made them: tracked "unknown", and Orchard never places a worktree there (sweep.ts).
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

export const cursor: HarnessProbe = {
  name: "cursor",
  match(w, roots) {
    const segments = below(w.path, roots.cursor);
    if (segments.length !== 2) return null;
    return { name: "cursor", session: segments[1] as string, reads: [], judge: () => ({ tracked: w.missing ? false : "unknown" }) };
  },
};
