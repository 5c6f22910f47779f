// One line of `orchard doctor`: what was checked, what was found, and what fixes it.
export interface DoctorCheck {
  /** node, sqlite, git, registry, workspace, trust, claude-code, codex, opencode, shell, disk. */
  name: string;
  ok: boolean;
  /** What was found. */
  detail: string;
  /** The command that fixes it; null when nothing needs fixing (or nothing a command does fixes it). */
  fix: string | null;
}
