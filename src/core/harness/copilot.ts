// GitHub Copilot CLI: `<repo>.worktrees/<branchSlug>` beside the primary, or under the
// `worktreePathTemplate` `orchard copilot install` sets: `<Orchard's home>/copilot/{repo}/{branchSlug}`
// (roots.orchard, the workspace home of the command that reads). Copilot keeps its sessions in its
// own store, which Orchard does not read: tracked "unknown".
import { dirname } from "node:path";
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

export const copilot: HarnessProbe = {
  name: "copilot",
  match(w, roots) {
    const templated = roots.orchard === null ? [] : below(w.path, `${roots.orchard}/copilot`);
    const session =
      dirname(w.path) === `${w.primary}.worktrees`
        ? w.path.slice(w.primary.length + ".worktrees/".length)
        : templated.length === 2
          ? (templated[1] as string)
          : undefined;
    if (session === undefined) return null;
    return { name: "copilot", session, reads: [], judge: () => ({ tracked: w.missing ? false : "unknown" }) };
  },
};
