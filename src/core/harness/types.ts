// Which agent harness made a worktree (SPEC v5 §1 harness), read from its disk shape: a path
// pattern, a branch pattern, a marker or metadata file. Never from a guess at a process.

import type { HarnessFact, HarnessName, Tracked } from "../shared/types.js";
export type { HarnessFact, HarnessName, Tracked };

export const HARNESS_NAMES = [
  "claude-code",
  "codex",
  "opencode",
  "copilot",
  "gemini",
  "cursor",
  "vibe-kanban",
  "conductor",
  "sculptor",
  "workmux",
  "ccmanager",
  "crystal",
  "uzi",
] as const satisfies readonly HarnessName[];
// every name of the type is in the list (and the list holds nothing else: `satisfies` above)
const complete: Exclude<HarnessName, (typeof HARNESS_NAMES)[number]> extends never ? true : never = true;
void complete;

/** What the matchers see of a worktree (all pure data; `admin` is its git admin dir). */
export interface WorktreeShape {
  path: string;
  /** The branch's short name; null when detached. */
  branch: string | null;
  primary: string;
  commonDir: string;
  admin: string | null;
  missing: boolean;
  /**
   * Orchard made or manages it (a registry row of this workspace, or its identity file naming this
   * workspace): then only a marker that names a live session of its own holds it for a harness; a
   * bare path or branch pattern does not override Orchard's own management (read.ts).
   */
  managed?: boolean;
}

/** Where each harness keeps its worktrees on this machine, from the environment (roots.ts). */
export interface HarnessRoots {
  home: string;
  /** Orchard's workspace home (real path), where `orchard copilot install` points Copilot's `worktreePathTemplate`; null when not known. */
  orchard: string | null;
  /** `$CODEX_HOME/worktrees` (default `~/.codex/worktrees`). */
  codex: string;
  /** `<XDG_DATA_HOME or ~/.local/share>/opencode/worktree`. */
  opencode: string;
  /** `~/.cursor/worktrees`. */
  cursor: string;
  /** `/var/tmp/vibe-kanban/worktrees`, and the same under the temporary directory. */
  vibeKanban: readonly string[];
  /** `~/conductor/workspaces`. */
  conductor: string;
  /** `~/.sculptor/workspaces`. */
  sculptor: string;
  /** `<XDG_DATA_HOME or ~/.local/share>/uzi`. */
  uzi: string;
  /** `~/.crystal` (Crystal's own directory: a `<repo>/worktrees/<name>` is Crystal's only where Crystal is installed). */
  crystal: string;
  /** `<XDG_CONFIG_HOME or ~/.config>/ccmanager/config.json`. */
  ccmanagerConfig: string;
}

/** A marker or metadata file as the reader found it (lstat-vetted, bounded). */
export type MarkerRead = { kind: "absent" } | { kind: "directory" } | { kind: "unreadable"; why: string } | { kind: "text"; text: string };

/** A shape matched: what to read to judge tracking, and the judgement over what was read (pure). */
export interface Claim {
  name: HarnessName;
  session?: string;
  /** Absolute paths of the files whose contents decide `tracked` (none: `judge` gets an empty list). */
  reads: readonly string[];
  /**
   * Tracking from what was read; null: the files say it is not this harness's after all (a marker looked for everywhere).
   * `marker`: the tracking was read from a record of this worktree's own that names its session (Codex's
   * `codex-thread.json`, uzi's state naming the path), not inferred from the shape: it alone holds a managed worktree.
   */
  judge(files: readonly MarkerRead[]): Judged | null;
}

export interface Judged {
  tracked: Tracked;
  session?: string;
  marker?: true;
}

/** One harness: its shapes (pure), in a file of its own. */
export interface HarnessProbe {
  name: HarnessName;
  match(w: WorktreeShape, roots: HarnessRoots): Claim | null;
}
