// A project install for a teammate without Orchard (SPEC v4 §3.14): the committed settings file runs
// `orchard` through PATH, and where there is none the hook must not fail every session ("WorktreeCreate
// hook failed … orchard: not found"). The hooks run a small POSIX `sh` script written beside the
// settings (`.claude/orchard-hook.sh`, committed with them): its command line is all Claude Code shows
// before Orchard's message when a hook refuses (issue 49 item 13), so it is short —
// `sh "${CLAUDE_PROJECT_DIR:-.}/.claude/orchard-hook.sh" claude-code worktree-create`. The script runs
// `orchard "$@"` when `command -v orchard` finds it, else what Claude Code 2.1.x does natively without
// a hook, with one line on stderr saying Orchard is missing:
// - worktree-create: the worktree Claude Code would make for `--worktree NAME` — path
//   `<main worktree>/.claude/worktrees/NAME` and branch `worktree-NAME` (a `/` in NAME becomes `+`),
//   from the remote default branch (`origin/HEAD`, else HEAD); the same name again takes back the one
//   there is. Its path is printed on stdout, as the hook's answer. (Claude Code validated NAME: letters,
//   digits, `.`, `_`, `-` and `/`-separated segments, so it is read from the JSON input with sed.) A new
//   worktree gets the files `.worktreeinclude` names that git ignores, copied from the main worktree, as
//   Claude Code copies them without a hook (a hook replaces that step): `git ls-files` picks the
//   untracked files the patterns match, `git check-ignore` keeps the ignored ones, one `tar` pair copies
//   them. `worktree.symlinkDirectories` and `worktree.sparsePaths` are not applied: they live in
//   settings JSON that a portable sh script cannot read (docs/commands.md says so).
// - worktree-remove and subagent-stop: `git worktree remove` without --force (it refuses a worktree that
//   holds uncommitted or untracked files: nothing is lost) and `git branch -d` (refused unless merged),
//   run from the main worktree (the hook's own directory is the worktree it removes). worktree-remove
//   exits 1 when it kept the worktree, as Orchard does, so ExitWorktree never says "removed".
// - session-start: nothing.
// The hook commands are recognised as Orchard's by their subcommand (settings.ts), so uninstall stays
// byte-exact; the script is removed by uninstall when it is byte for byte the one install wrote.

/** The script's name, beside the settings file. */
export const HOOK_SCRIPT = "orchard-hook.sh";

/** Its first line: a file there that does not start with it is not Orchard's to replace. */
const HEADER = "# Orchard's Claude Code hooks: written by `orchard claude-code install`, removed by `orchard claude-code uninstall`.";

const MISSING = "orchard: not found on PATH";
const TOP = `top=$(git worktree list --porcelain | sed -n '1s/^worktree //p')`;
const field = (key: string, chars: string) => `$(sed -n 's/.*"${key}" *: *"\\(${chars}*\\)".*/\\1/p' | head -n 1)`;

/** Copies into the new worktree `$d` the untracked files of `$top` that `.worktreeinclude` names and git ignores (a failure is said, not fatal). */
const INCLUDE = [
  `    if [ -f "$top/.worktreeinclude" ]; then`,
  `      (cd "$top" && git ls-files -z --others --ignored --exclude-from=.worktreeinclude | { git check-ignore -z --stdin || [ $? = 1 ]; } | tar --null -cf - -T - | tar -xf - -C "$d") >&2 ||`,
  `        echo "${MISSING}: the files .worktreeinclude names could not all be copied into $d" >&2`,
  `    fi`,
];

/** The script install writes beside the settings (the same bytes for every install: uninstall compares them). */
export const HOOK_SCRIPT_TEXT = [
  HEADER,
  "# With `orchard` on PATH it runs `orchard <arguments>`; without, what Claude Code does natively without a hook.",
  `command -v orchard >/dev/null 2>&1 && exec orchard "$@"`,
  `event=`,
  `for a in "$@"; do case $a in worktree-create | worktree-remove | subagent-stop | session-start) event=$a ;; esac; done`,
  `case $event in`,
  `  worktree-create)`,
  `    echo "${MISSING}: this session gets Claude Code's own worktree (npm install -g orchard-worktrees to have Orchard manage it)" >&2`,
  `    n=${field("name", "[A-Za-z0-9._/-]")}`,
  `    [ -n "$n" ] || exit 1`,
  `    ${TOP}`,
  `    s=$(printf '%s' "$n" | tr / +)`,
  `    d="$top/.claude/worktrees/$s"`,
  `    if [ ! -d "$d" ]; then`,
  `      if git show-ref -q --verify "refs/heads/worktree-$s"; then git worktree add -q "$d" "worktree-$s"; else git worktree add -q -b "worktree-$s" "$d" "$(git symbolic-ref -q --short refs/remotes/origin/HEAD || echo HEAD)"; fi >&2 || exit 1`,
  ...INCLUDE,
  `    fi`,
  `    printf '%s\\n' "$d"`,
  `    ;;`,
  `  worktree-remove)`,
  `    p=${field("worktree_path", '[^"]')}`,
  `    ${TOP}`,
  `    if [ -n "$p" ] && git worktree remove "$p" >&2; then git -C "$top" branch -q -d "worktree-\${p##*/}" 2>/dev/null; exit 0; fi`,
  `    echo "${MISSING}: $p was kept: git worktree remove refused it (it holds changes or untracked files); commit or discard them, then git worktree remove it" >&2`,
  `    exit 1`,
  `    ;;`,
  `  subagent-stop)`,
  `    a=${field("agent_id", "[A-Za-z0-9_-]")}`,
  `    ${TOP}`,
  `    if [ -n "$a" ] && [ -d "$top/.claude/worktrees/agent-$a" ] && git worktree remove "$top/.claude/worktrees/agent-$a" 2>/dev/null; then git -C "$top" branch -q -d "worktree-agent-$a" 2>/dev/null; fi`,
  `    ;;`,
  `esac`,
  `exit 0`,
  "",
].join("\n");

/** Whether a file's text is a script of Orchard's (this version or an older one): install may replace it. */
export function isOurScript(text: string): boolean {
  return text.startsWith(HEADER);
}

/**
 * The hook command that runs `command` (which starts with `orchard`) through the script at
 * `script` (a shell word: `"${CLAUDE_PROJECT_DIR:-.}/.claude/orchard-hook.sh"` for a project).
 */
export function throughScript(script: string, command: string): string {
  return `sh ${script}${command.slice("orchard".length)}`;
}
