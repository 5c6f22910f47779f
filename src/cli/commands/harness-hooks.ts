// orchard codex|gemini|copilot install|uninstall|session-start|session-end (SPEC v5 §3.15). The
// session hooks read the harness's JSON on stdin and never fail a session: exit 0 whatever they met
// (bad input: exit 2), a refusal or a sweep's failure said on stderr; outside a git repository they
// say nothing at all. session-start prints the harness's hook JSON carrying what the model should
// know (`additionalContext`: the sweep's removals, a refusal to adopt), or nothing; session-end prints
// nothing. With --json each prints its result object instead (what a test or a script reads).
import type { Command } from "commander";
import { resolve } from "node:path";
import type { Orchard } from "../../core/orchard.js";
import { OrchardError, usageError } from "../../core/shared/errors.js";
import type { ReapResult } from "../../core/reap/index.js";
import type { HarnessHookName, HookFileResult, SessionHookResult } from "../../core/harness-hooks/index.js";
import type { ClientProcess } from "../../core/ownership/index.js";
import { globalsOf, openOptions, runWith, warnUnreachable } from "../run.js";
import { readStdin, runnerOf } from "./claude-code.js";

const NAMES: Record<HarnessHookName, string> = { codex: "Codex", gemini: "Gemini CLI", copilot: "Copilot CLI" };

export function renderHookFile(r: HookFileResult): string {
  const notes = r.notes.map((n) => `note: ${n.message}\n`).join("");
  if (r.action === "unchanged") return `${notes}${r.file}: already installed (it runs \`${r.command}\`)`;
  if (r.action === "not_installed") return `${r.file}: nothing of Orchard's to remove`;
  const verb = r.action === "planned" ? "would write" : "wrote";
  return `${notes}${verb} ${r.file}${r.command ? ` (it runs \`${r.command}\`)` : ""}\n${r.diff}`;
}

function isNotARepository(error: unknown): boolean {
  return error instanceof OrchardError && error.code === "not_a_repository";
}

function refusalText(r: SessionHookResult): string | null {
  if (r.action !== "refused") return null;
  const why = r.reasons.map((x) => `${x.code} (${x.message})`).join("; ");
  return `Orchard did not take this worktree (${r.path}) into its care for this session: ${why}.`;
}

/** The session-start hook: adopt, then the sweep; what the model should know goes back as additionalContext. */
async function sessionStart(cmd: Command, harness: HarnessHookName): Promise<void> {
  const globals = globalsOf(cmd);
  let orchard: Orchard | undefined;
  try {
    // the harness's process, looked at before anything else: the lease names it
    const { readClientProcess } = await import("../../core/ownership/index.js");
    const host: ClientProcess | null = await readClientProcess();
    const hooks = await import("../../core/harness-hooks/index.js");
    const payload = hooks.parseHarnessSession(harness, "start", await readStdin(NAMES[harness]));
    const { Orchard } = await import("../../core/orchard.js");
    orchard = await Orchard.open(openOptions({ ...globals, repo: "" }, true)); // the repo comes from the hook's payload
    let session: SessionHookResult | null = null;
    let sweep: ReapResult | null = null;
    try {
      session = await hooks.harnessSessionStart(orchard, harness, payload, host);
      const result = await orchard.reapOrphans({ repo: payload.cwd });
      warnUnreachable(result);
      sweep = result;
    } catch (error) {
      if (isNotARepository(error)) return; // outside a repository: nothing to do, nothing to say
      process.stderr.write(`orchard: ${harness} session-start: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    if (globals.json) {
      process.stdout.write(`${JSON.stringify({ ok: true, session, sweep })}\n`);
      return;
    }
    const { sessionStartContext, sessionStartOutput } = await import("../../core/claude-code/index.js");
    const refusal = session ? refusalText(session) : null;
    if (refusal) process.stderr.write(`orchard: ${refusal}\n`);
    const text = [refusal, sessionStartContext(sweep, [], payload.cwd)].filter((t) => t !== null).join("\n");
    if (text !== "" && harness !== "copilot") process.stdout.write(`${sessionStartOutput(text)}\n`);
  } catch (error) {
    process.stderr.write(`orchard: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof OrchardError && error.kind === "usage" ? 2 : 0;
  } finally {
    await orchard?.close();
  }
}

/** The session-end hook: release the session's lease; the worktree stays. */
async function sessionEnd(cmd: Command, harness: HarnessHookName): Promise<void> {
  const globals = globalsOf(cmd);
  let orchard: Orchard | undefined;
  try {
    const hooks = await import("../../core/harness-hooks/index.js");
    const payload = hooks.parseHarnessSession(harness, "end", await readStdin(NAMES[harness]));
    const { Orchard } = await import("../../core/orchard.js");
    orchard = await Orchard.open(openOptions({ ...globals, repo: "" }, true));
    let session: SessionHookResult | null = null;
    try {
      session = await hooks.harnessSessionEnd(orchard, harness, payload);
    } catch (error) {
      if (isNotARepository(error)) return;
      process.stderr.write(`orchard: ${harness} session-end: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    if (session?.action === "refused") process.stderr.write(`orchard: kept the lease on ${session.path}: ${session.reasons.map((r) => r.code).join(", ")}\n`);
    if (globals.json) process.stdout.write(`${JSON.stringify({ ok: true, session })}\n`);
  } catch (error) {
    process.stderr.write(`orchard: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof OrchardError && error.kind === "usage" ? 2 : 0;
  } finally {
    await orchard?.close();
  }
}

interface InstallFlags {
  user?: boolean;
  project?: boolean;
  via?: string;
  command?: string;
  dryRun?: boolean;
}

function scopeOf(opts: InstallFlags, projectAllowed: boolean): "user" | "project" {
  if (opts.user && opts.project) throw usageError("usage", "--user and --project exclude each other");
  if (opts.project && !projectAllowed) throw usageError("usage", "this harness reads Orchard's hooks from the user's configuration only");
  return opts.project ? "project" : "user";
}

/** The install and uninstall commands of one harness's hook file. */
function registerInstall(group: Command, harness: HarnessHookName, files: { user: string; project?: string }): void {
  const projectAllowed = files.project !== undefined;
  const install = group
    .command("install")
    .description(`add Orchard's session hooks to ${files.user}${projectAllowed ? ` (or ${files.project} with --project)` : ""}`)
    .option(
      "--via <how>",
      "how the hooks run orchard: bin (`orchard` on PATH), npx (`npx -y orchard-worktrees`), path (this node and script; user installs only)",
    )
    .option("--command <cmd>", "exactly what the hooks run orchard with, written as given (default: see --via)")
    .option("--dry-run", "print the diff, write nothing");
  const uninstall = group
    .command("uninstall")
    .description(`remove exactly the hooks install wrote; every other byte stays`)
    .option("--dry-run", "print the diff, write nothing");
  for (const c of projectAllowed ? [install, uninstall] : []) c.option("--user", `${files.user} (the default)`).option("--project", files.project as string);
  install.action((opts: InstallFlags, cmd: Command) =>
    runWith(
      cmd,
      async (o, globals) => {
        const scope = scopeOf(opts, projectAllowed);
        const { runnerCommand } = await import("../../core/claude-code/index.js");
        const command = runnerCommand({
          scope,
          runner: runnerOf({ ...opts, project: scope === "project" }),
          ...(globals.home && opts.command === undefined ? { home: resolve(globals.home) } : {}),
        });
        const { installHarnessHooks } = await import("../../core/harness-hooks/index.js");
        return installHarnessHooks(o, harness, { scope, command, dryRun: opts.dryRun ?? false, ...(globals.repo ? { repo: globals.repo } : {}) });
      },
      renderHookFile,
    ),
  );
  uninstall.action((opts: InstallFlags, cmd: Command) =>
    runWith(
      cmd,
      async (o, globals) => {
        const { uninstallHarnessHooks } = await import("../../core/harness-hooks/index.js");
        const scope = scopeOf(opts, projectAllowed);
        return uninstallHarnessHooks(o, harness, { scope, dryRun: opts.dryRun ?? false, ...(globals.repo ? { repo: globals.repo } : {}) });
      },
      renderHookFile,
    ),
  );
}

function registerSessions(group: Command, harness: HarnessHookName): void {
  group
    .command("session-start")
    .description(`the session start hook: adopt the worktree ${NAMES[harness]} made for this session in place (leased to it, locked), then the startup sweep`)
    .action((_opts: unknown, cmd: Command) => sessionStart(cmd, harness));
  group
    .command("session-end")
    .description("the session end hook: release the session's lease; the worktree stays")
    .action((_opts: unknown, cmd: Command) => sessionEnd(cmd, harness));
}

function registerOpencode(program: Command): void {
  const opencode = program
    .command("opencode")
    .description('OpenCode\'s plugin: its "worktree" workspace adapter backed by Orchard (add, remove, leases)')
    .addHelpText("after", "\nOpenCode's workspaces are experimental: run it with OPENCODE_EXPERIMENTAL_WORKSPACES=true.");
  opencode
    .command("install")
    .description("write Orchard's plugin into OpenCode's plugin directory")
    .option("--user", "$XDG_CONFIG_HOME/opencode/plugin/orchard.js (default ~/.config; the default)")
    .option("--project", "<repo>/.opencode/plugin/orchard.js (commit it)")
    .option("--via <how>", "how the plugin runs orchard: bin (`orchard` on PATH), npx (`npx -y orchard-worktrees`), path (this node and script; --user only)")
    .option("--command <cmd>", "exactly what the plugin runs orchard with, through sh (default: see --via)")
    .option("--dry-run", "print the file, write nothing")
    .action((opts: InstallFlags, cmd: Command) =>
      runWith(
        cmd,
        async (o, globals) => {
          const scope = scopeOf(opts, true);
          const { installOpencode } = await import("../../core/harness-hooks/index.js");
          return installOpencode(o, {
            scope,
            runner: runnerOf({ ...opts, project: scope === "project" }),
            ...(globals.home && opts.command === undefined ? { home: resolve(globals.home) } : {}),
            dryRun: opts.dryRun ?? false,
            ...(globals.repo ? { repo: globals.repo } : {}),
          });
        },
        renderHookFile,
      ),
    );
  opencode
    .command("uninstall")
    .description("delete Orchard's plugin file (only Orchard's), and the directories install made for it when left empty")
    .option("--user", "the user's plugin (the default)")
    .option("--project", "<repo>/.opencode/plugin/orchard.js")
    .option("--dry-run", "print what would go, delete nothing")
    .action((opts: InstallFlags, cmd: Command) =>
      runWith(
        cmd,
        async (o, globals) => {
          const { uninstallOpencode } = await import("../../core/harness-hooks/index.js");
          return uninstallOpencode(o, { scope: scopeOf(opts, true), dryRun: opts.dryRun ?? false, ...(globals.repo ? { repo: globals.repo } : {}) });
        },
        renderHookFile,
      ),
    );
}

export function register(program: Command): void {
  registerOpencode(program);
  const codex = program.command("codex").description("Codex's hooks: adopt the worktree of each Codex thread when its session starts, release it when it ends");
  registerInstall(codex, "codex", { user: "$CODEX_HOME/hooks.json (default ~/.codex/hooks.json)" });
  registerSessions(codex, "codex");
  const gemini = program
    .command("gemini")
    .description("Gemini CLI's hooks: adopt each `gemini --worktree` worktree when its session starts, release it when it ends");
  registerInstall(gemini, "gemini", { user: "~/.gemini/settings.json", project: "<repo>/.gemini/settings.json" });
  registerSessions(gemini, "gemini");
  const copilot = program
    .command("copilot")
    .description("Copilot CLI's hooks: its worktrees under Orchard's home, adopted when their session starts, released when it ends");
  registerInstall(copilot, "copilot", { user: "$COPILOT_HOME/settings.json (default ~/.copilot/settings.json: worktreePathTemplate and the hooks)" });
  registerSessions(copilot, "copilot");
}
