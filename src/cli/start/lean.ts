// The lean command line: the verbs of one worktree a person or an agent types all day — `add`,
// `release`, `heartbeat`, `status`, `remove` (SPEC v5 §3: an everyday verb costs one worktree) — and
// plain `list` (its --full and --all-repos stay the whole command line's), without the whole command line. Its own bundle (dist/bin/orchard-lean.cjs, scripts/bundle.mjs) holds this,
// run.ts, the renderers and the library, not commander or the other commands' modules: a command
// pays for what it runs. main.ts runs it for an argument list naming one of these verbs; it answers
// false for anything it does not parse exactly as the command line would (another flag, `--`,
// `--help`, a flag before the verb, a value that reads as a flag, one argument too many, an argument
// that is not valid UTF-8), and the whole command line runs as before, with its own answer.
// What runs is the command line's own code: runCommand (run.ts) with the options, early queries,
// renderer and exit codes the command's declaration (commands/admission.ts, navigate.ts, inspect.ts) gives it.
// The verbs' flags below are those declarations': a test holds the two together (lean.test.ts).
import { invalidUtf8Argument } from "../argv.js";
import { runCommand, type RunOptions } from "../run.js";
import { waitForEachProcess } from "../../git/run.js";
import { stopChildrenOnSignals } from "../signals.js";
import { renderRemove } from "../commands/remove-render.js";
import { renderAdd, renderLease, renderList, renderStatus } from "../render.js";
import type { GlobalOptions, Renderer } from "../output.js";
import type { Orchard } from "../../core/orchard.js";

export type LeanMain = (argv: readonly string[]) => Promise<boolean>;

type Opts = Record<string, string | boolean>;

interface Verb {
  /** Its one argument: required, optional (add's branch), or none (list). */
  argument: "required" | "optional" | "none";
  /** Flags that take a value, by name (`--owner <id>`), as commander names them in opts (camelCase). */
  valued: readonly string[];
  /** Flags without a value (`--dry-run` → dryRun: true; `--no-bootstrap` → bootstrap: false). */
  switches: Readonly<Record<string, readonly [string, boolean]>>;
  /** Its flags the lean command line leaves to the whole one: any of them, and it answers false. */
  declined?: readonly string[];
  /** The defaults commander puts first in opts. */
  defaults: Readonly<Opts>;
  run: RunOptions;
  /** Its processes run one after another anyway: each is waited for on this thread (git/run-sync.ts). */
  sequential?: true;
  call: (orchard: Orchard, argument: string | undefined, opts: Opts) => Promise<{ ok: boolean }>;
  render: Renderer<never>;
}

const VERBS: Readonly<Record<string, Verb>> = {
  add: {
    argument: "optional",
    valued: ["base", "task", "owner", "pid", "ttl", "policy"],
    switches: { "--resume": ["resume", true], "--no-bootstrap": ["bootstrap", false], "--dry-run": ["dryRun", true] },
    defaults: { policy: "isolated", bootstrap: true },
    run: { early: "admit" },
    call: (o, branch, opts) => o.add({ ...(branch === undefined ? {} : { branch }), ...(opts as object) }),
    render: renderAdd,
  },
  release: {
    argument: "required",
    valued: ["outcome", "owner"],
    switches: { "--force": ["force", true] },
    defaults: { outcome: "done" },
    run: { early: "locked" },
    call: (o, target, opts) => o.release({ target: target as string, ...(opts as object) }),
    render: renderLease,
  },
  heartbeat: {
    argument: "required",
    valued: ["owner", "ttl", "pid"],
    switches: {},
    defaults: {},
    run: { early: "locked" },
    call: (o, target, opts) => o.heartbeat({ target: target as string, ...(opts as object) }),
    render: renderLease,
  },
  status: {
    argument: "required",
    valued: [],
    switches: {},
    defaults: {},
    run: { local: true, early: "target" },
    call: (o, target) => o.status({ target: target as string }),
    render: renderStatus,
  },
  remove: {
    argument: "required",
    valued: [],
    switches: { "--salvage": ["salvage", true], "--dry-run": ["dryRun", true] },
    defaults: {},
    run: {},
    sequential: true,
    call: (o, target, opts) => o.remove({ target: target as string, ...(opts as object) }),
    render: renderRemove,
  },
  list: {
    argument: "none",
    valued: [],
    switches: {},
    declined: ["--all-repos", "--full"],
    defaults: {},
    run: { local: true, early: "repo", progress: "list" },
    call: (o) => o.list({}),
    render: renderList,
  },
};

/** Each lean verb's flags as commander would declare them: `--name <value>` or `--name`, and the defaults (lean.test.ts compares them with program.ts's). */
export function leanDeclarations(): Record<string, { flags: string[]; declined: string[]; defaults: Opts; argument: Verb["argument"] }> {
  return Object.fromEntries(
    Object.entries(VERBS).map(([name, v]) => [
      name,
      {
        flags: [...v.valued.map((f) => `--${f} <value>`), ...Object.keys(v.switches)].sort(),
        declined: [...(v.declined ?? [])],
        defaults: { ...v.defaults },
        argument: v.argument,
      },
    ]),
  );
}

interface Parsed {
  globals: GlobalOptions;
  verb: Verb;
  argument: string | undefined;
  opts: Opts;
}

/** One value of a flag that takes one: `--flag=value` or `--flag value`; null when it is missing or reads as a flag. */
function valueOf(args: readonly string[], i: number, inline: string | undefined): string | null {
  const value = inline ?? args[i + 1];
  return value === undefined || value === "" || value.startsWith("-") ? null : value;
}

/** A lean verb's argument list as commander would read it; null for anything else (the full command line's). */
export function parseLean(args: readonly string[]): Parsed | null {
  const globals: GlobalOptions = {};
  let verb: Verb | undefined;
  let opts: Opts = {};
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const flag = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    const name = flag?.[1] as string;
    if (flag && (name === "home" || name === "repo" || name === "registry")) {
      const value = valueOf(args, i, flag[2]);
      if (value === null) return null;
      if (flag[2] === undefined) i++;
      globals[name] = value;
    } else if (arg === "--json") globals.json = true;
    else if (arg === "--wide") globals.wide = true;
    else if (arg === "--no-color") globals.color = false;
    else if (verb && flag && verb.valued.includes(name)) {
      const value = valueOf(args, i, flag[2]);
      if (value === null) return null;
      if (flag[2] === undefined) i++;
      opts[name] = value;
    } else if (verb && verb.switches[arg]) {
      const [key, value] = verb.switches[arg] as readonly [string, boolean];
      opts[key] = value;
    } else if (arg.startsWith("-"))
      return null; // --help, `--`, another flag, a verb's flag before the verb
    else if (verb === undefined) {
      verb = Object.hasOwn(VERBS, arg) ? VERBS[arg] : undefined;
      if (verb === undefined) return null;
      opts = { ...verb.defaults };
    } else words.push(arg);
  }
  if (verb === undefined || words.length > (verb.argument === "none" ? 0 : 1) || (verb.argument === "required" && words.length === 0)) return null;
  return { globals, verb, argument: words[0], opts };
}

export const main: LeanMain = async (argv) => {
  const parsed = parseLean(argv.slice(2));
  if (parsed === null || invalidUtf8Argument(argv) !== null) return false;
  const { globals, verb, argument, opts } = parsed;
  stopChildrenOnSignals(); // a SIGTERM or SIGINT leaves no git of ours behind, as program.ts's main
  if (verb.sequential) waitForEachProcess();
  await runCommand(globals, (o) => verb.call(o, argument, opts), verb.render as Renderer<{ ok: boolean }>, undefined, {
    ...verb.run,
    dryRun: opts.dryRun === true,
  });
  return true;
};
