// orchard claude-code install|uninstall|worktree-create|worktree-remove|subagent-stop|session-start (SPEC §3.14). The hook
// commands read Claude Code's JSON on stdin. session-start prints Claude Code's hook JSON carrying what the model
// should know (`additionalContext`), or nothing, and exits 0 whatever the sweep met (a session start never fails). worktree-create prints exactly one line on stdout — the
// worktree's absolute path — and nothing else: Claude Code takes the last non-empty stdout line as
// the directory (a relative one against the session's cwd) and fails on a missing path or on JSON.
// Every failure goes to stderr with exit 1 (Claude Code shows it). worktree-remove exits 1 when it
// kept the worktree: Claude Code 2.1.x then tells the model "could not remove it. It is kept at …"
// (with exit 0 it says "Exited and removed worktree"); the session goes on either way.
import type { Command } from "commander";
import { existsSync, realpathSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import type { Orchard } from "../../core/orchard.js";
import { OrchardError, usageError } from "../../core/shared/errors.js";
import type { ReapResult } from "../../core/reap/index.js";
import { globalsOf, openOptions, runWith, warnUnreachable } from "../run.js";
import { escapeControl } from "../escape.js";
import { remedyOf } from "../../core/shared/reasons/remedies.js";
import type { HookRunner, InstallResult, UninstallResult, WorktreeRemoveResult } from "../../core/claude-code/index.js";

export async function readStdin(harness = "Claude Code"): Promise<string> {
  if (process.stdin.isTTY) throw usageError("usage", `this command reads ${harness}'s hook input (JSON) on stdin`);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Whether PATH's `orchard` is this very program (then a user install need not pin a path). */
function pathFindsThisProgram(script: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => {
    const candidate = join(dir, "orchard");
    return dir !== "" && existsSync(candidate) && realpathSync(candidate) === script;
  });
}

const VIAS = ["bin", "npx", "path"] as const;

/**
 * How the hooks run orchard. A project install: `orchard` (`--via bin`, the default) or
 * `npx -y orchard-worktrees` (`--via npx`), never a path. A user install: `orchard` when PATH finds
 * this very program, else this node and script (`--via path`), as before.
 */
export function runnerOf(opts: { command?: string; via?: string; project?: boolean }): HookRunner {
  if (opts.command !== undefined) {
    if (opts.via !== undefined) throw usageError("usage", "--command and --via exclude each other");
    if (opts.command.trim() === "") throw usageError("usage", "--command is empty");
    return { via: "command", command: opts.command };
  }
  if (opts.via !== undefined && !(VIAS as readonly string[]).includes(opts.via))
    throw usageError("usage", `--via must be one of ${VIAS.join(", ")}, got ${JSON.stringify(opts.via)}`);
  const script = realpathSync(process.argv[1] as string);
  const via = opts.via ?? (opts.project || pathFindsThisProgram(script) ? "bin" : "path");
  return via === "path" ? { via, node: process.execPath, script } : { via: via as "bin" | "npx" };
}

function scopeOf(opts: { user?: boolean; project?: boolean }): "user" | "project" {
  if (opts.user && opts.project) throw usageError("usage", "--user and --project exclude each other");
  return opts.project ? "project" : "user";
}

/** The hook script's line (install wrote it beside the settings; uninstall removes it unless edited). */
function scriptLine(r: InstallResult | UninstallResult): string {
  const s = r.script;
  if (s === null || s.action === "unchanged") return "";
  if (s.action === "kept") return `kept ${s.file}: it is not the script install wrote (edited); remove it yourself if it is no longer wanted\n`;
  const verb = s.action === "planned" ? ("command" in r ? "would write" : "would remove") : s.action === "written" ? "wrote" : "removed";
  return `${verb} ${s.file} (the hooks' fallback where PATH has no orchard: commit it with the settings)\n`;
}

function renderInstall(r: InstallResult): string {
  const notes = r.notes.map((n) => `note: ${n.message}\n`).join("");
  if (r.action === "unchanged") return `${notes}${r.file}: Orchard's hooks are already installed (they run \`${r.command}\`)`;
  const settings = r.diff === "" ? "" : `${r.action === "planned" ? "would write" : "wrote"} ${r.file} (the hooks run \`${r.command}\`)\n${r.diff}`;
  return `${notes}${scriptLine(r)}${settings}`.replace(/\n$/, "");
}

function renderUninstall(r: UninstallResult): string {
  if (r.action === "not_installed") return `${scriptLine(r)}${r.file}: no hook of Orchard's to remove`;
  const settings = r.diff === "" ? "" : `${r.action === "planned" ? "would write" : "wrote"} ${r.file}\n${r.diff}`;
  return `${scriptLine(r)}${settings}`.replace(/\n$/, "");
}

/** One line of a hook's stderr (Claude Code shows it to the person): what the repository wrote is shown, never obeyed, and cut at 2,000 characters. */
function hookLine(text: string): string {
  const chars = [...text];
  return `orchard: ${escapeControl(chars.length > 2_000 ? `${chars.slice(0, 2_000).join("")}… (cut: ${chars.length} characters in all)` : text)}\n`;
}

/** Codes that say the worktree holds work found nowhere else: the next step saves it. */
const WORK = new Set(["dirty", "worktree_dirty", "unpushed_commits", "work_not_preserved", "needs_salvage"]);

/**
 * Why a worktree was kept, for the hook's stderr (the session ends either way): one line, the reasons
 * that hold it (not `terminal`: that is the release just done) and the one next step.
 */
function keptMessage(r: WorktreeRemoveResult): string {
  const holding = r.reasons.filter((x) => x.code !== "terminal");
  const why = holding.map((x) => `${x.code} (${x.message})`).join("; ") || "its work is not preserved elsewhere";
  const work = r.disposition === "needs_salvage" || holding.length === 0 || holding.some((x) => WORK.has(x.code));
  const other = holding.map((x) => x.next ?? remedyOf(x)).find((n) => n !== null);
  const next = work
    ? `commit and push the work in ${r.path}, or \`orchard remove ${r.handle ?? r.path} --salvage\` (keeps it in a salvage ref, then removes the worktree)`
    : (other ?? `\`orchard status ${r.handle ?? r.path}\``);
  return hookLine(`kept ${r.path}: ${why}; nothing was lost. Next: ${next}`);
}

function renderRemove(r: WorktreeRemoveResult): string {
  return r.action === "kept" ? "" : `${r.action} ${r.path}`;
}

export function register(program: Command): void {
  const cc = program.command("claude-code").description("Claude Code's worktree backend: hooks that make Orchard create, lease and clean its worktrees");

  cc.command("install")
    .description("merge the WorktreeCreate/WorktreeRemove/SubagentStop hooks and a SessionStart sweep into Claude Code's settings")
    .option("--user", "~/.claude/settings.json (the default)")
    .option("--project", "<repo>/.claude/settings.json (commit it: Claude Code re-reads it inside the new worktree)")
    .option("--via <how>", "how the hooks run orchard: bin (`orchard` on PATH), npx (`npx -y orchard-worktrees`), path (this node and script; --user only)")
    .option("--policy <policy>", "the admission policy of every session's worktree: isolated | reuse-compatible | recycle-terminal | exclusive-task")
    .option("--command <cmd>", "exactly what the hooks run orchard with, written as given (default: see --via)")
    .option("--dry-run", "print the diff, write nothing")
    .addHelpText(
      "after",
      "\nA project install writes `orchard` (or `npx -y orchard-worktrees` with --via npx), never a path of this\nmachine; a user install writes `orchard` when PATH finds this program, else this node and script.\nWith `orchard` (--via bin) the hooks run orchard-hook.sh, written beside the settings (commit it with\nthem): orchard where PATH has it, else Claude Code's own worktrees. uninstall removes it unless edited.",
    )
    .action((opts: { user?: boolean; project?: boolean; via?: string; policy?: string; command?: string; dryRun?: boolean }, cmd: Command) =>
      runWith(
        cmd,
        async (o, globals) =>
          o.claudeCodeInstall({
            scope: scopeOf(opts),
            runner: runnerOf(opts),
            ...(globals.home && opts.command === undefined ? { home: resolve(globals.home) } : {}),
            policy: opts.policy,
            dryRun: opts.dryRun ?? false,
            ...(globals.repo ? { repo: globals.repo } : {}),
          }),
        renderInstall,
      ),
    );

  cc.command("uninstall")
    .description("remove exactly the hooks install wrote from Claude Code's settings; every other byte stays")
    .option("--user", "~/.claude/settings.json (the default)")
    .option("--project", "<repo>/.claude/settings.json")
    .option("--dry-run", "print the diff, write nothing")
    .action((opts: { user?: boolean; project?: boolean; dryRun?: boolean }, cmd: Command) =>
      runWith(
        cmd,
        async (o, globals) => o.claudeCodeUninstall({ scope: scopeOf(opts), dryRun: opts.dryRun ?? false, ...(globals.repo ? { repo: globals.repo } : {}) }),
        renderUninstall,
      ),
    );

  cc.command("worktree-create")
    .description("the WorktreeCreate hook: admit the session's worktree and print its path")
    .option("--policy <policy>", "admission policy (see `orchard add --policy`)")
    .action(async (opts: { policy?: string }, cmd: Command) => {
      const globals = globalsOf(cmd);
      let orchard: Orchard | undefined;
      try {
        // who runs this hook, looked at first: Claude Code may die while the worktree is made (bootstrap can take minutes)
        const { identifyHost } = await import("../../core/claude-code/index.js");
        const host = await identifyHost();
        const input = await readStdin();
        const { Orchard } = await import("../../core/orchard.js"); // loaded by the command, not at start-up
        orchard = await Orchard.open(openOptions({ ...globals, repo: "" })); // the repo comes from the hook's payload
        const created = await orchard.claudeCodeWorktreeCreate(input, { host, ...(opts.policy === undefined ? {} : { policy: opts.policy }) });
        for (const note of created.notes) process.stderr.write(hookLine(note));
        process.stdout.write(`${created.path}\n`);
      } catch (error) {
        process.stderr.write(hookLine(error instanceof Error ? error.message : String(error)));
        process.exitCode = 1;
      } finally {
        await orchard?.close();
      }
    });

  cc.command("worktree-remove")
    .description("the WorktreeRemove hook: release the session's worktree; remove it only when nothing would be lost")
    .action((_opts: unknown, cmd: Command) =>
      runWith(
        cmd,
        async (o) => {
          const result = await o.claudeCodeWorktreeRemove(await readStdin());
          if (result.action === "kept") process.stderr.write(keptMessage(result));
          return result;
        },
        renderRemove,
        (r) => (r.action === "kept" ? 1 : 0),
      ),
    );

  cc.command("subagent-stop")
    .description("the SubagentStop hook: release an isolated subagent's worktree; remove it only when nothing would be lost")
    .action((_opts: unknown, cmd: Command) =>
      runWith(
        cmd,
        async (o) => {
          const result = await o.claudeCodeSubagentStop(await readStdin());
          if (result.action === "kept") process.stderr.write(keptMessage(result));
          return result;
        },
        (r) => (r.action === "not_managed" ? "" : renderRemove(r)),
      ),
    );

  cc.command("session-start")
    .description("the SessionStart hook: the startup sweep (reap-orphans); what the model should know goes back as additionalContext")
    .action(async (_opts: unknown, cmd: Command) => {
      const globals = globalsOf(cmd);
      let orchard: Orchard | undefined;
      try {
        const { parseSessionStartPayload, readSessionNotes, sessionStartContext, sessionStartOutput } = await import("../../core/claude-code/index.js");
        const payload = parseSessionStartPayload(await readStdin());
        let sweep: ReapResult | null = null;
        try {
          const { Orchard } = await import("../../core/orchard.js");
          orchard = await Orchard.open(openOptions({ ...globals, repo: "" }, true)); // the repo comes from the hook's payload
          const result = await orchard.reapOrphans({ repo: payload.cwd });
          warnUnreachable(result);
          if (!result.ok) process.stderr.write("orchard: reap-orphans stopped: the default branch is unknown\n");
          sweep = result;
        } catch (error) {
          // outside a repository, a broken .orchard.json, anything: no sweep, and never a failing session start
          process.stderr.write(hookLine(`session-start: no startup sweep: ${error instanceof Error ? error.message : String(error)}`));
        }
        const text = sessionStartContext(sweep, readSessionNotes(payload.cwd, payload.sessionId), payload.cwd);
        if (text !== null) process.stdout.write(`${sessionStartOutput(text)}\n`);
      } catch (error) {
        process.stderr.write(`orchard: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = error instanceof OrchardError && error.kind === "usage" ? 2 : 0;
      } finally {
        await orchard?.close();
      }
    });
}
