// Conductor: `~/conductor/workspaces/<repo>/<name>`. Its workspaces live in its own database:
// tracked "unknown".
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

export const conductor: HarnessProbe = {
  name: "conductor",
  match(w, roots) {
    const segments = below(w.path, roots.conductor);
    if (segments.length !== 2) return null;
    return { name: "conductor", session: segments[1] as string, reads: [], judge: () => ({ tracked: w.missing ? false : "unknown" }) };
  },
};
