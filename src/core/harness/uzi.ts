// uzi: `<XDG_DATA_HOME or ~/.local/share>/uzi/worktrees/<agent>-<project>-<hash>-<time>`, on a branch
// of the same name; its sessions are listed in `uzi/state.json` with their worktree paths. Tracked
// while state.json names the worktree; unknown when the file cannot be read.
import { join } from "node:path";
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

export const uzi: HarnessProbe = {
  name: "uzi",
  match(w, roots) {
    const segments = below(w.path, join(roots.uzi, "worktrees"));
    if (segments.length !== 1) return null;
    return {
      name: "uzi",
      session: segments[0] as string,
      reads: [join(roots.uzi, "state.json")],
      judge([state]) {
        if (w.missing || state === undefined || state.kind === "absent") return { tracked: false };
        if (state.kind !== "text") return { tracked: "unknown" };
        return state.text.includes(JSON.stringify(w.path)) ? { tracked: true, marker: true } : { tracked: false };
      },
    };
  },
};
