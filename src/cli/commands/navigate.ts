// path, cd, shell-init, remove: the everyday verbs of moving between worktrees and ending one.
// `orchard cd` changes the shell's own directory, which no child process can: shell-init prints a
// shell function named `orchard` that runs `orchard path` for `cd` and passes everything else on.
import type { Command } from "commander";
import { runWith } from "../run.js";
import { printUsageError } from "../output.js";
import { reasonLines } from "../render.js";
import { renderRemove } from "./remove-render.js";
import type { PathResult } from "../../core/navigate/index.js";

const SHELLS = ["bash", "zsh", "fish"] as const;

/** bash and zsh: `orchard cd <handle|task>` cds into `orchard path`'s answer; anything else runs the command. */
const POSIX_FUNCTION = `# orchard shell integration: eval "$(orchard shell-init bash)" (or zsh) in your shell's rc file
orchard() {
  if [ "$1" = "cd" ]; then
    shift
    local orchard_dir
    orchard_dir="$(command orchard path "$@")" || return $?
    builtin cd -- "$orchard_dir"
  else
    command orchard "$@"
  fi
}
`;

const FISH_FUNCTION = `# orchard shell integration: orchard shell-init fish | source (in ~/.config/fish/config.fish)
function orchard --description 'orchard, with orchard cd'
    if test (count $argv) -ge 1; and test "$argv[1]" = cd
        set -l orchard_dir (command orchard path $argv[2..-1] | string collect); or return $status
        builtin cd -- $orchard_dir
    else
        command orchard $argv
    end
end
`;

/** The function text for `shell`; null for a shell orchard does not know. */
export function shellFunction(shell: string): string | null {
  if (shell === "bash" || shell === "zsh") return POSIX_FUNCTION;
  return shell === "fish" ? FISH_FUNCTION : null;
}

function renderPath(r: PathResult): string {
  if (r.ok) return r.path;
  const lines = [`${r.handle ?? r.path}: its directory is gone (${r.path})`, ...reasonLines("refused:", r.reasons)];
  if (r.next) lines.push(`  ↳ ${r.next}`);
  return lines.join("\n");
}

export function register(program: Command): void {
  program
    .command("path")
    .description("print the path of a worktree, named by handle, path, branch or task; none, ^ or the default branch: the primary")
    .argument("[handle|task]")
    .action((target: string | undefined, _opts: unknown, cmd: Command) =>
      runWith(cmd, (o) => o.path(target === undefined ? {} : { target }), renderPath, undefined, { local: true }),
    );

  program
    .command("cd")
    .description("change the shell's directory to a worktree; none, ^ or the default branch: the primary (needs the shell function: orchard shell-init)")
    .argument("[handle|task]")
    .action((target: string | undefined, _opts: unknown, cmd: Command) => {
      const json = (cmd.optsWithGlobals() as { json?: boolean }).json === true;
      const hint = `orchard cd needs the shell function (a program cannot change its shell's directory): eval "$(orchard shell-init bash)" (or zsh; fish: orchard shell-init fish | source), or cd "$(orchard path${target === undefined ? "" : ` ${target}`})"`;
      printUsageError(hint, { json }, "usage");
    });

  program
    .command("shell-init")
    .description("print the shell function that defines `orchard cd` (eval it in your shell's rc file)")
    .argument("<shell>", SHELLS.join(" | "))
    .action((shell: string, _opts: unknown, cmd: Command) => {
      const json = (cmd.optsWithGlobals() as { json?: boolean }).json === true;
      const text = shellFunction(shell);
      if (text === null) {
        printUsageError(`shell-init: ${JSON.stringify(shell)} is not one of ${SHELLS.join(", ")}`, { json }, "invalid_argument");
        return;
      }
      process.stdout.write(json ? `${JSON.stringify({ ok: true, shell, script: text })}\n` : text);
    });

  program
    .command("remove")
    .description("remove one worktree under cleanup's proofs: refuses work at risk and says the next step")
    .argument("<handle|path>")
    .option("--salvage", "save uncommitted or unpushed work to a salvage ref first, then remove")
    .option("--dry-run", "prove and report, change nothing")
    .action((target: string, opts: { salvage?: boolean; dryRun?: boolean }, cmd: Command) => runWith(cmd, (o) => o.remove({ target, ...opts }), renderRemove));
}
