// The completion scripts, made from the command tree itself so they always know every command,
// option and option value. What exists only at run time (handles, tasks, branches, open plan ids,
// salvage refs) the scripts ask of `orchard __complete <kind>`, which prints only names of
// Orchard's own shape; the scripts still treat every word as data: bash and zsh never pass one
// through `compgen -W` (which expands `$(…)`), and quote what they offer with `printf %q`.
// zsh runs the bash function through bashcompinit, so its variables avoid zsh's special names
// (`path` is tied to `$PATH`): every local is `orchard_*`.
import type { Command } from "commander";

export const KINDS = ["handles", "targets", "plans", "salvage-refs"] as const;
export type Kind = (typeof KINDS)[number];

/** The argument of these commands is completed from the live workspace. */
const DYNAMIC: Record<string, Kind> = {
  release: "targets",
  heartbeat: "handles",
  status: "handles",
  bootstrap: "targets",
  recycle: "handles",
  lineage: "handles",
  remove: "handles",
  path: "targets",
  cd: "targets",
  merge: "targets",
  "cleanup apply": "plans",
  "cleanup resume": "plans",
  "salvage restore": "salvage-refs",
};

const SHELLS = ["bash", "zsh", "fish"];

/** The values an option takes, wherever it appears (an option's name means one thing in every command). */
const OPTION_VALUES: Record<string, string[]> = {
  "--strategy": ["merge", "squash", "rebase"],
  "--policy": ["isolated", "reuse-compatible", "recycle-terminal", "exclusive-task"],
  "--include": ["reclaimable", "reapable", "missing", "husk", "needs_salvage"],
  "--outcome": ["done", "abandoned", "failed"],
  "--via": ["bin", "npx", "path"],
  "--merged": ["ancestor", "equivalent"],
};

/** Options whose value is a file or directory: the shell's own file completion. */
const FILE_VALUES = ["--repo", "--home", "--manifest", "--from", "--html", "--dir", "--into"];

/** Commands whose argument is one of a fixed list. */
export interface StaticArguments {
  explain: string[];
}

interface Node {
  path: string;
  subcommands: string[];
  options: string[];
  arguments: string[];
  dynamic: Kind | undefined;
}

function nodes(program: Command, statics: StaticArguments): Node[] {
  const out: Node[] = [];
  const visit = (c: Command, path: string): void => {
    const visible = c.commands.filter((s) => s.name() !== "__complete");
    const fixed = path === "explain" ? statics.explain : path === "completion" || path === "shell-init" ? SHELLS : [];
    out.push({
      path,
      subcommands: visible.map((s) => s.name()),
      options: c.options.map((o) => o.long).filter((x): x is string => !!x),
      arguments: fixed,
      dynamic: DYNAMIC[path],
    });
    for (const s of visible) visit(s, path ? `${path} ${s.name()}` : s.name());
  };
  visit(program, "");
  return out;
}

/** Every option (long and short) that takes a value, across the tree: its value is no command word. */
function valueOptions(program: Command): string[] {
  const found = new Set<string>();
  const visit = (c: Command): void => {
    for (const o of c.options) if (o.required || o.optional) for (const f of [o.long, o.short]) if (f) found.add(f);
    c.commands.forEach(visit);
  };
  visit(program);
  return [...found].sort();
}

const GLOBAL_OPTIONS = "--json --repo --home --registry --wide --no-color";

export function bashScript(program: Command, statics: StaticArguments): string {
  const all = nodes(program, statics).sort((a, b) => b.path.length - a.path.length);
  const cases = all.map((n) => {
    const pattern = n.path === "" ? `""` : `"${n.path}"|"${n.path} "*`;
    const words = [...n.subcommands, ...n.arguments].join(" ");
    const body = n.dynamic ? `orchard_kind=${n.dynamic}` : `orchard_words="${words}"`;
    return `    ${pattern}) orchard_opts="${n.options.join(" ")}"; ${body} ;;`;
  });
  const values = Object.entries(OPTION_VALUES).map(([o, v]) => `    ${o}) orchard_words="${v.join(" ")}" ;;`);
  return `# orchard completion for bash (orchard completion bash)
_orchard() {
  local orchard_cur="\${COMP_WORDS[COMP_CWORD]}" orchard_prev="" orchard_cmd="" orchard_w orchard_i orchard_skip=0
  local orchard_words="" orchard_opts="" orchard_kind="" orchard_nl=$'\\n'
  for ((orchard_i = 1; orchard_i < COMP_CWORD; orchard_i++)); do
    orchard_w="\${COMP_WORDS[orchard_i]}"
    if ((orchard_skip)); then orchard_skip=0; continue; fi
    case "$orchard_w" in ${valueOptions(program).join("|")}) orchard_skip=1; continue ;; -*) continue ;; esac
    orchard_cmd="\${orchard_cmd:+$orchard_cmd }$orchard_w"
  done
  COMPREPLY=()
  if ((COMP_CWORD > 1)); then orchard_prev="\${COMP_WORDS[COMP_CWORD - 1]}"; fi
  case "$orchard_prev" in
${values.join("\n")}
    ${valueOptions(program).join("|")}) return 0 ;;
    *)
      case "$orchard_cmd" in
${cases.map((c) => `  ${c}`).join("\n")}
      esac
      if [[ "$orchard_cur" == -* ]]; then
        orchard_words="$orchard_opts ${GLOBAL_OPTIONS}"; orchard_kind=""
      fi ;;
  esac
  if [[ -n "$orchard_kind" ]]; then
    orchard_words="$(command orchard __complete "$orchard_kind" 2>/dev/null)"
  else
    orchard_words="\${orchard_words// /$orchard_nl}"
  fi
  while IFS= read -r orchard_w; do
    if [[ -n "$orchard_w" && "$orchard_w" == "$orchard_cur"* ]]; then COMPREPLY+=("$(printf '%q' "$orchard_w")"); fi
  done <<< "$orchard_words"
  return 0
}
complete -o default -F _orchard orchard
`;
}

export function zshScript(program: Command, statics: StaticArguments): string {
  return `#compdef orchard
# orchard completion for zsh (orchard completion zsh): the bash completion through bashcompinit
if ! whence compdef >/dev/null; then autoload -U compinit && compinit; fi
autoload -U +X bashcompinit && bashcompinit
${bashScript(program, statics).replace(/^# orchard completion for bash.*\n/, "")}# autoloaded from $fpath by the first TAB: complete that TAB too
if (( \${+compstate} )); then _bash_complete -o default -F _orchard; fi
`;
}

/** fish quotes what it inserts; each word here is single-quoted as fish reads it. */
function fishWords(words: string[]): string {
  return `'${words.map((w) => w.replace(/[\\']/g, "\\$&")).join(" ")}'`;
}

export function fishScript(program: Command, statics: StaticArguments): string {
  const all = nodes(program, statics);
  const takesValue = valueOptions(program);
  // the command path of the line so far: the words that name commands, past options and their values
  const lines = [
    "# orchard completion for fish (orchard completion fish)",
    `set -g __orchard_commands ${all
      .filter((n) => n.path)
      .map((n) => `'${n.path}'`)
      .join(" ")}`,
    "function __orchard_at --description 'is the line at this orchard command?'",
    "    set -l cmd",
    "    set -l skip 0",
    "    for w in (commandline -opc)[2..-1]",
    "        if test $skip = 1",
    "            set skip 0",
    "            continue",
    "        end",
    "        switch $w",
    `            case ${takesValue.join(" ")}`,
    "                set skip 1",
    "                continue",
    "            case '-*'",
    "                continue",
    "        end",
    "        set -l next (string join ' ' -- $cmd $w)",
    "        contains -- $next $__orchard_commands; or break",
    "        set cmd $cmd $w",
    "    end",
    "    set -l at (string join ' ' -- $cmd)",
    '    test "$at" = "$argv[1]"',
    "end",
    "complete -c orchard -f",
  ];
  for (const n of all) {
    const when = `__orchard_at '${n.path}'`;
    const words = [...n.subcommands, ...n.arguments];
    if (words.length) lines.push(`complete -c orchard -n "${when}" -a ${fishWords(words)}`);
    for (const o of n.options) {
      const name = o.replace(/^--/, "");
      const values = OPTION_VALUES[o];
      if (values) lines.push(`complete -c orchard -n "${when}" -l ${name} -x -a ${fishWords(values)}`);
      else if (FILE_VALUES.includes(o)) lines.push(`complete -c orchard -n "${when}" -l ${name} -r -F`);
      else lines.push(`complete -c orchard -n "${when}" -l ${name}${takesValue.includes(o) ? " -x" : ""}`);
    }
    if (n.dynamic) lines.push(`complete -c orchard -n "${when}" -a '(command orchard __complete ${n.dynamic} 2>/dev/null)'`);
  }
  return lines.join("\n") + "\n";
}

/**
 * A name of Orchard's own shape: letters, digits and `._-/@#+:=,` only, not starting with `-`.
 * A handle, a task id, a branch or a salvage ref with anything else (`$(…)`, quotes, spaces,
 * control characters) is never offered: completion inserts it into the owner's command line.
 */
export function completable(name: string): boolean {
  return /^[A-Za-z0-9_.][A-Za-z0-9._\-/@#+:=,]*$/.test(name) && name.length <= 255;
}
