// workmux (tmux windows over worktrees): `<primary>__worktrees/<name>` beside the primary, its
// default `worktree_dir` (from its docs: docs/guide/configuration.md). workmux keeps no record of
// its own but the tmux window, whose shell works inside the worktree (a live signal Orchard already
// reads): tracked false, judged like any foreign worktree.
import { dirname } from "node:path";
import type { HarnessProbe } from "./types.js";

export const workmux: HarnessProbe = {
  name: "workmux",
  match(w) {
    if (dirname(w.path) !== `${w.primary}__worktrees`) return null;
    return { name: "workmux", session: w.path.slice(w.primary.length + "__worktrees/".length), reads: [], judge: () => ({ tracked: false }) };
  },
};
