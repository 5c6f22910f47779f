// A project install for a teammate without Orchard (SPEC v4 §3.14): the committed settings file runs
// `orchard` through PATH, and where there is none the hook must not fail every session ("WorktreeCreate
// hook failed … orchard: not found"). Each hook command is a portable POSIX `sh` line: Orchard when
// `command -v orchard` finds it, else what Claude Code 2.1.x does natively without a hook, with one
// line on stderr saying Orchard is missing:
// - WorktreeCreate: the worktree Claude Code would make for `--worktree NAME` — path
//   `<main worktree>/.claude/worktrees/NAME` and branch `worktree-NAME` (a `/` in NAME becomes `+`),
//   from the remote default branch (`origin/HEAD`, else HEAD); the same name again takes back the one
//   there is. Its path is printed on stdout, as the hook's answer. (Claude Code validated NAME: letters,
//   digits, `.`, `_`, `-` and `/`-separated segments, so it is read from the JSON input with sed.) A new
//   worktree gets the files `.worktreeinclude` names that git ignores, copied from the main worktree, as
//   Claude Code copies them without a hook (a hook replaces that step): `git ls-files` picks the
//   untracked files the patterns match, `git check-ignore` keeps the ignored ones, one `tar` pair copies
//   them. `worktree.symlinkDirectories` and `worktree.sparsePaths` are not applied: they live in
//   settings JSON that a portable sh line cannot read (docs/claude-code.md says so).
// - WorktreeRemove and SubagentStop: `git worktree remove` without --force (it refuses a worktree that
//   holds uncommitted or untracked files: nothing is lost) and `git branch -d` (refused unless merged).
// - SessionStart: nothing.
// The wrapper is recognised as Orchard's by its subcommand (settings.ts), so uninstall stays byte-exact.

/** The events of ORCHARD_HOOKS (settings.ts), by name. */
type Event = "WorktreeCreate" | "WorktreeRemove" | "SessionStart" | "SubagentStop";

const MISSING = "orchard: not found on PATH";
const TOP = `top=$(git worktree list --porcelain | sed -n '1s/^worktree //p')`;
const field = (key: string, chars: string) => `$(sed -n 's/.*"${key}" *: *"\\(${chars}*\\)".*/\\1/p' | head -n 1)`;

/** Copies into the new worktree `$d` the untracked files of `$top` that `.worktreeinclude` names and git ignores (a failure is said, not fatal). */
const INCLUDE = [
  `if [ -f "$top/.worktreeinclude" ]; then`,
  `(cd "$top" && git ls-files -z --others --ignored --exclude-from=.worktreeinclude | { git check-ignore -z --stdin || [ $? = 1 ]; } | tar --null -cf - -T - | tar -xf - -C "$d") >&2`,
  `|| echo "${MISSING}: the files .worktreeinclude names could not all be copied into $d" >&2;`,
  `fi`,
].join(" ");

function nativeFallback(event: Event): string {
  switch (event) {
    case "WorktreeCreate":
      return [
        `echo "${MISSING}: this session gets Claude Code's own worktree (npm install -g orchard-worktrees to have Orchard manage it)" >&2`,
        `n=${field("name", "[A-Za-z0-9._/-]")}`,
        `[ -n "$n" ] || exit 1`,
        TOP,
        `s=$(printf '%s' "$n" | tr / +)`,
        `d="$top/.claude/worktrees/$s"`,
        `if [ ! -d "$d" ]; then if git show-ref -q --verify "refs/heads/worktree-$s"; then git worktree add -q "$d" "worktree-$s"; else git worktree add -q -b "worktree-$s" "$d" "$(git symbolic-ref -q --short refs/remotes/origin/HEAD || echo HEAD)"; fi >&2 || exit 1; ${INCLUDE}; fi`,
        `printf '%s\\n' "$d"`,
      ].join("; ");
    case "WorktreeRemove":
      return [
        `p=${field("worktree_path", '[^"]')}`,
        `if [ -n "$p" ] && git worktree remove "$p" >&2; then git branch -q -d "worktree-\${p##*/}" 2>/dev/null; else echo "${MISSING}: $p was kept (git worktree remove refused it)" >&2; fi`,
        `exit 0`,
      ].join("; ");
    case "SubagentStop":
      return [
        `a=${field("agent_id", "[A-Za-z0-9_-]")}`,
        TOP,
        `if [ -n "$a" ] && [ -d "$top/.claude/worktrees/agent-$a" ] && git worktree remove "$top/.claude/worktrees/agent-$a" 2>/dev/null; then git branch -q -d "worktree-agent-$a" 2>/dev/null; fi`,
        `exit 0`,
      ].join("; ");
    case "SessionStart":
      return "exit 0";
  }
}

/** The hook command that runs `command` (which starts with `orchard`) when PATH finds orchard, else Claude Code's native behaviour. */
export function withNativeFallback(event: Event, command: string): string {
  return `command -v orchard >/dev/null 2>&1 && exec ${command} || { ${nativeFallback(event)}; }`;
}
