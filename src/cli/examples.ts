// One to three real examples under each command's --help (clig.dev: examples first). Each line is
// a command a person can run as it is, in a repository with Orchard's defaults.
import type { Command } from "commander";

export const EXAMPLES: Record<string, readonly string[]> = {
  add: [
    "orchard add feature/login --owner agent-1 --task o/r#7",
    "orchard add --task https://github.com/o/r/issues/7 --owner agent-1",
    "orchard add fix/typo --policy reuse-compatible --dry-run --json",
  ],
  path: ["orchard path app@feature-login-3f2a1b9c", "orchard path o/r#7"],
  cd: ['eval "$(orchard shell-init bash)"; orchard cd o/r#7'],
  "shell-init": [
    "orchard shell-init bash",
    'eval "$(orchard shell-init bash)"   # in ~/.bashrc (zsh: ~/.zshrc)',
    "orchard shell-init fish | source   # in ~/.config/fish/config.fish",
  ],
  remove: ["orchard remove app@fix-typo", "orchard remove app@fix-typo --salvage", "orchard remove .claude/worktrees/agent-x --dry-run --json"],
  merge: ["orchard merge app@feature-login-3f2a1b9c", "orchard merge app@fix-typo --strategy squash", "orchard merge app@fix-typo --strategy rebase --dry-run"],
  release: ["orchard release app@feature-login-3f2a1b9c --owner agent-1", "orchard release app@fix-typo --outcome abandoned"],
  heartbeat: ["orchard heartbeat app@feature-login-3f2a1b9c --owner agent-1 --ttl 2h"],
  status: ["orchard status app@main", "orchard status .claude/worktrees/agent-x --json"],
  list: ["orchard list", "orchard list --full --all-repos"],
  recycle: ["orchard recycle app@fix-typo --branch fix/docs --owner agent-2"],
  lineage: ["orchard lineage app@fix-docs", "orchard lineage o/r#7"],
  trust: ["orchard trust"],
  bootstrap: ["orchard bootstrap app@feature-login-3f2a1b9c", "orchard bootstrap o/r#7 --dry-run --json"],
  hygiene: ["orchard hygiene", "orchard hygiene --disk --html report.html", "orchard hygiene --wide | less -S"],
  "cleanup plan": ["orchard cleanup plan", "orchard cleanup plan --include needs_salvage --salvage"],
  "cleanup apply": ["orchard cleanup apply <planId> --limit 10"],
  "cleanup resume": ["orchard cleanup resume <planId>"],
  "cleanup run": ["orchard cleanup run --dry-run", "orchard cleanup run", "orchard cleanup run --include needs_salvage --salvage"],
  "reap-orphans": ["orchard reap-orphans --dry-run", "orchard reap-orphans --salvage --guard 10m"],
  "salvage list": ["orchard salvage list"],
  "salvage restore": ["orchard salvage restore refs/orchard/salvage/<…> --branch recovered/work"],
  "salvage prune": ["orchard salvage prune --dry-run", "orchard salvage prune --older-than 30d"],
  "cleanup-wave": [
    "orchard cleanup-wave --manifest wave.json --dry-run",
    "orchard cleanup-wave --manifest wave.json --continue-on-block",
    "orchard cleanup-wave --manifest wave.json --strategy squash",
  ],
  adopt: ["orchard adopt .claude/worktrees/agent-x --task o/r#9"],
  explain: ["orchard explain live_owner", "orchard explain needs_salvage", "orchard explain"],
  completion: [
    "orchard completion bash > ~/.local/share/bash-completion/completions/orchard",
    "orchard completion zsh > ~/.zfunc/_orchard",
    "orchard completion fish > ~/.config/fish/completions/orchard.fish",
  ],
  demo: ["orchard demo", "orchard demo --dir /tmp/orchard-demo --json"],
  doctor: ["orchard doctor", "orchard doctor --json"],
  mcp: ["claude mcp add orchard -- orchard mcp"],
  "claude-code install": ["orchard claude-code install --project", "orchard claude-code install --dry-run"],
  "registry migrate": ["orchard registry migrate --from ~/.orchard/orchard.db --to postgres://orchard@db/fleet"],
};

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** Adds the examples to every command that has some, at any depth; global options show in every help. */
export function addExamples(program: Command): void {
  const visit = (command: Command): void => {
    const examples = EXAMPLES[pathOf(command)];
    if (examples) command.addHelpText("after", `\nExamples:\n${examples.map((e) => `  $ ${e}`).join("\n")}\n`);
    command.configureHelp({ showGlobalOptions: true });
    command.commands.forEach(visit);
  };
  program.commands.forEach(visit);
}
