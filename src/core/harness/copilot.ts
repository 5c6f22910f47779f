// GitHub Copilot CLI: `<repo>.worktrees/<branchSlug>` beside the primary (or its
// `worktreePathTemplate`, which `orchard copilot install` points under Orchard's root). Copilot
// keeps its sessions in its own store, which Orchard does not read: tracked "unknown".
import { dirname } from "node:path";
import type { HarnessProbe } from "./types.js";

export const copilot: HarnessProbe = {
  name: "copilot",
  match(w) {
    if (dirname(w.path) !== `${w.primary}.worktrees`) return null;
    return {
      name: "copilot",
      session: w.path.slice(w.primary.length + ".worktrees/".length),
      reads: [],
      judge: () => ({ tracked: w.missing ? false : "unknown" }),
    };
  },
};
