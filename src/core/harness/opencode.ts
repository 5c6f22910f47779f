// OpenCode: `<XDG_DATA_HOME or ~/.local/share>/opencode/worktree/<root commit sha>/<name>`, on
// `opencode/<name>` or detached (its workspace adapter's), with the marker `<common dir>/opencode`
// holding the repository's root commit sha (OpenCode's project id). OpenCode keeps each worktree
// as a row of its SQLite database; Orchard does not read another program's database, so while the
// marker is there the honest answer is "unknown" (harness_unverified). Without the marker, or with
// the directory gone, OpenCode no longer knows the worktree as this project's: tracked false.
import { join } from "node:path";
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

export const OPENCODE_MARKER = "opencode";

export const opencode: HarnessProbe = {
  name: "opencode",
  match(w, roots) {
    const segments = below(w.path, roots.opencode);
    const byPath = segments.length === 2 && /^[0-9a-f]{40,64}$/.test(segments[0] as string);
    const byBranch = w.branch?.startsWith("opencode/") === true;
    if (!byPath && !byBranch) return null;
    const session = byPath ? (segments[1] as string) : (w.branch as string).slice("opencode/".length);
    return {
      name: "opencode",
      session,
      reads: [join(w.commonDir, OPENCODE_MARKER)],
      judge([marker]) {
        if (w.missing || marker === undefined || marker.kind === "absent") return { tracked: false };
        // a marker naming another root commit than the path's: not this project's worktree in OpenCode's eyes
        if (marker.kind === "text" && byPath && marker.text.trim() !== "" && marker.text.trim() !== segments[0]) return { tracked: false };
        return { tracked: "unknown" };
      },
    };
  },
};
