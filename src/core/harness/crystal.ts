// Crystal (stravu/crystal): `<primary>/worktrees/<name>` on `<name>` (its worktreeManager.ts), a
// directory name common enough that it counts as Crystal's only where Crystal is installed (`~/.crystal`).
// Its sessions live in its SQLite database, which Orchard does not read: tracked "unknown".
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

export const crystal: HarnessProbe = {
  name: "crystal",
  match(w, roots) {
    const [name, ...rest] = below(w.path, `${w.primary}/worktrees`);
    if (name === undefined || rest.length > 0) return null;
    return {
      name: "crystal",
      session: name,
      reads: [roots.crystal],
      judge: ([home]) => (home?.kind === "directory" ? { tracked: w.missing ? false : "unknown" } : null),
    };
  },
};
