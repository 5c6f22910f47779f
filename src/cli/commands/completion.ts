// `orchard completion bash|zsh|fish`: a completion script made from the command tree itself
// (completion-scripts.ts). What exists only at run time — handles, task ids and branches, open
// plan ids, salvage refs — the script asks of `orchard __complete <kind>` (hidden), which prints
// one candidate a line, only names of Orchard's own shape, and nothing on any failure.
import type { Command } from "commander";
import { globalsOf, openOptions } from "../run.js";
import { usageError } from "../../core/shared/errors.js";
import { printError } from "../output.js";
import { KINDS, bashScript, completable, fishScript, zshScript, type Kind, type StaticArguments } from "./completion-scripts.js";

async function candidates(kind: Kind, cmd: Command): Promise<string[]> {
  const { Orchard } = await import("../../core/orchard.js");
  const orchard = await Orchard.open(openOptions(globalsOf(cmd), true));
  try {
    // the registry's rows of the repo (one `git worktree list` where it has none), never a status
    if (kind === "handles" || kind === "targets") {
      const navigate = await import("../../core/navigate/index.js");
      const ctx = await orchard.context();
      return kind === "handles" ? await navigate.worktreeHandles(ctx) : await navigate.worktreeTargets(ctx);
    }
    if (kind === "plans") return orchard.registry.plans.openIds();
    return (await orchard.salvageList()).salvages.map((s) => s.ref);
  } finally {
    await orchard.close();
  }
}

async function statics(): Promise<StaticArguments> {
  const { explain } = await import("../../core/explain/index.js");
  const all = explain();
  return { explain: "codes" in all ? all.codes.map((c) => c.code) : [] };
}

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

export function register(program: Command): void {
  program
    .command("completion")
    .description("print a shell completion script (bash, zsh or fish): commands, options, option values, live handles, tasks, plan ids and salvage refs")
    .argument("<shell>", "bash | zsh | fish")
    .action(async (shell: string, _opts: unknown, cmd: Command) => {
      const globals = globalsOf(cmd);
      if (!Object.hasOwn(SCRIPTS, shell)) return printError(usageError("usage", `no completion for ${JSON.stringify(shell)}: bash, zsh or fish`), globals);
      process.stdout.write(SCRIPTS[shell as keyof typeof SCRIPTS](program, await statics()));
    });
  program
    .command("__complete", { hidden: true })
    .argument("<kind>", KINDS.join(" | "))
    .action(async (kind: string, _opts: unknown, cmd: Command) => {
      if (!(KINDS as readonly string[]).includes(kind)) {
        process.exitCode = 2;
        return;
      }
      try {
        const found = (await candidates(kind as Kind, cmd)).filter(completable);
        if (found.length) process.stdout.write(found.join("\n") + "\n");
      } catch {
        // completion prints nothing when the workspace or repo cannot be read; the shell shows no candidates
      }
    });
}
