// `orchard completion bash|zsh|fish`: a completion script made from the command tree itself, so
// it always knows every command and option. What exists only at run time — handles, open plan
// ids, salvage refs — the script asks of `orchard __complete <kind>` (hidden), which prints one
// candidate a line and nothing on any failure. zsh uses the bash script through bashcompinit.
import type { Command } from "commander";
import { globalsOf, openOptions } from "../run.js";
import { usageError } from "../../core/shared/errors.js";
import { printError } from "../output.js";

const KINDS = ["handles", "plans", "salvage-refs"] as const;
type Kind = (typeof KINDS)[number];

/** The argument of these commands is completed from the live workspace. */
const DYNAMIC: Record<string, Kind> = {
  release: "handles",
  heartbeat: "handles",
  bootstrap: "handles",
  status: "handles",
  recycle: "handles",
  lineage: "handles",
  path: "handles",
  cd: "handles",
  remove: "handles",
  merge: "handles",
  "cleanup apply": "plans",
  "cleanup resume": "plans",
  "salvage restore": "salvage-refs",
};

interface Node {
  path: string;
  subcommands: string[];
  options: string[];
}

function nodes(program: Command): Node[] {
  const out: Node[] = [];
  const visit = (c: Command, path: string): void => {
    const visible = c.commands.filter((s) => s.name() !== "__complete");
    out.push({ path, subcommands: visible.map((s) => s.name()), options: c.options.map((o) => o.long).filter((x): x is string => !!x) });
    for (const s of visible) visit(s, path ? `${path} ${s.name()}` : s.name());
  };
  visit(program, "");
  return out;
}

const GLOBAL_VALUES = "--repo|--home|--registry";

function bash(program: Command): string {
  const all = nodes(program).sort((a, b) => b.path.length - a.path.length);
  const cases = all.map((n) => {
    const pattern = n.path === "" ? `""` : `"${n.path}"|"${n.path} "*`;
    const dynamic = DYNAMIC[n.path];
    const words = n.subcommands.length ? n.subcommands.join(" ") : "";
    const body = dynamic ? `words="$(orchard __complete ${dynamic} 2>/dev/null)"` : `words="${words}"`;
    return `    ${pattern}) opts="${n.options.join(" ")}"; ${body} ;;`;
  });
  return `# orchard completion for bash (orchard completion bash)
_orchard() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w i skip=0 words="" opts=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$w" in ${GLOBAL_VALUES}) skip=1; continue ;; -*) continue ;; esac
    path="\${path:+$path }$w"
  done
  case "$path" in
${cases.join("\n")}
  esac
  if [[ "$cur" == -* ]]; then words="$opts --json --repo --home --wide --no-color"; fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _orchard orchard
`; // handles, plan ids and refs hold no whitespace: compgen's word splitting keeps each whole
}

function zsh(program: Command): string {
  return `#compdef orchard
# orchard completion for zsh (orchard completion zsh): the bash completion through bashcompinit
autoload -U +X bashcompinit && bashcompinit
${bash(program).replace(/^# orchard completion for bash.*\n/, "")}`;
}

function fish(program: Command): string {
  const lines = ["# orchard completion for fish (orchard completion fish)", "complete -c orchard -f"];
  for (const n of nodes(program)) {
    const names = n.path.split(" ").filter(Boolean);
    const when = names.length === 0 ? "__fish_use_subcommand" : `__fish_seen_subcommand_from ${names.at(-1)}`;
    if (n.subcommands.length) lines.push(`complete -c orchard -n '${when}' -a '${n.subcommands.join(" ")}'`);
    for (const o of n.options) lines.push(`complete -c orchard -n '${when}' -l ${o.replace(/^--/, "")}`);
    const dynamic = DYNAMIC[n.path];
    if (dynamic) lines.push(`complete -c orchard -n '${when}' -a '(orchard __complete ${dynamic} 2>/dev/null)'`);
  }
  return lines.join("\n") + "\n";
}

async function candidates(kind: Kind, cmd: Command): Promise<string[]> {
  const { Orchard } = await import("../../core/orchard.js");
  const orchard = await Orchard.open(openOptions(globalsOf(cmd), true));
  try {
    // the registry's rows of the repo (one `git worktree list` where it has none), never a status
    if (kind === "handles") return await (await import("../../core/navigate/index.js")).worktreeHandles(await orchard.context());
    if (kind === "plans") return orchard.registry.plans.openIds();
    return (await orchard.salvageList()).salvages.map((s) => s.ref);
  } finally {
    await orchard.close();
  }
}

export function register(program: Command): void {
  program
    .command("completion")
    .description("print a shell completion script (bash, zsh or fish), with live handles, plan ids and salvage refs")
    .argument("<shell>", "bash | zsh | fish")
    .action((shell: string, _opts: unknown, cmd: Command) => {
      const globals = globalsOf(cmd);
      const make = { bash, zsh, fish }[shell as "bash"];
      if (!Object.hasOwn({ bash, zsh, fish }, shell) || !make)
        return printError(usageError("usage", `no completion for ${JSON.stringify(shell)}: bash, zsh or fish`), globals);
      process.stdout.write(make(program));
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
        const found = await candidates(kind as Kind, cmd);
        if (found.length) process.stdout.write(found.join("\n") + "\n");
      } catch {
        // completion prints nothing when the workspace or repo cannot be read; the shell shows no candidates
      }
    });
}
