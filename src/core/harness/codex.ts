// Codex CLI and app: `$CODEX_HOME/worktrees/<4 hex>/<repo>` (the root moves with `[desktop]
// git-worktree-root`), detached, with `codex-thread.json` `{"version":1,"ownerThreadId":…}` in its
// admin dir while the thread that owns it lives (archiving the thread removes both). The marker
// alone names Codex wherever the worktree is; the path without a marker is a worktree whose thread
// is gone (tracked: false). Codex also writes a `config.worktree` whose `core.worktree` names the
// worktree's own path: not a relocation (git/programs/read.ts).
import { join } from "node:path";
import { below } from "./roots.js";
import type { Claim, HarnessProbe, Judged, MarkerRead, WorktreeShape } from "./types.js";

export const CODEX_MARKER = "codex-thread.json";

/** The thread a `codex-thread.json` names, or why it names none. */
export function parseCodexThread(text: string): { thread: string } | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { invalid: "not JSON" };
  }
  const v = value as { version?: unknown; ownerThreadId?: unknown } | null;
  if (typeof v !== "object" || v === null || typeof v.ownerThreadId !== "string" || v.ownerThreadId === "") return { invalid: "no ownerThreadId" };
  if (v.version !== 1) return { invalid: `version ${JSON.stringify(v.version)}` };
  return { thread: v.ownerThreadId };
}

// the marker is this worktree's own (its admin dir): even unreadable, it is a record of a thread, never a shape alone
function judge(files: readonly MarkerRead[], byPath: boolean): Judged | null {
  const marker = files[0] ?? { kind: "absent" };
  if (marker.kind === "absent") return byPath ? { tracked: false } : null;
  if (marker.kind !== "text") return { tracked: "unknown", marker: true };
  const parsed = parseCodexThread(marker.text);
  return "thread" in parsed ? { tracked: true, session: parsed.thread, marker: true } : { tracked: "unknown", marker: true };
}

export const codex: HarnessProbe = {
  name: "codex",
  match(w: WorktreeShape, roots): Claim | null {
    const segments = below(w.path, roots.codex);
    const byPath = segments.length === 2 && /^[0-9a-f]{4}$/.test(segments[0] as string);
    // the marker is looked for in every worktree's admin dir: the root is configurable
    if (!w.admin) return byPath ? { name: "codex", reads: [], judge: () => ({ tracked: false }) } : null;
    return { name: "codex", reads: [join(w.admin, CODEX_MARKER)], judge: (files) => judge(files, byPath) };
  },
};
