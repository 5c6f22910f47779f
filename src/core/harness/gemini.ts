// Gemini CLI (`gemini --worktree`): `<primary>/.gemini/worktrees/<name>` on `worktree-<name>`.
// Gemini keeps the session that works in it in its own store: tracked "unknown".
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

export const gemini: HarnessProbe = {
  name: "gemini",
  match(w) {
    const [name, ...rest] = below(w.path, `${w.primary}/.gemini/worktrees`);
    if (name === undefined || rest.length > 0) return null;
    return { name: "gemini", session: name, reads: [], judge: () => ({ tracked: w.missing ? false : "unknown" }) };
  },
};
