// recycle, lineage, trust: giving a released worktree new work, reading its history, and
// allowing the repository's own commands to run.
import type { Command } from "commander";
import { nextLines } from "../next.js";
import { escapeControl } from "../escape.js";
import { runWith } from "../run.js";
import { renderAdd, short } from "../render.js";
import { relativeTime } from "../time.js";
import type { LineageResult } from "../../core/recycle/index.js";
import type { TrustResult } from "../../core/bootstrap/index.js";

function renderLineage(r: LineageResult): string {
  if (r.events.length === 0) return "no events";
  return r.events
    .map((e) => {
      const data = e.data as { from?: { handle?: string; head?: string | null }; to?: { handle?: string }; outcome?: string; candidates?: string[] };
      const detail =
        e.kind === "recycled"
          ? `${data.from?.handle ?? "?"} (${short(data.from?.head)}) → ${data.to?.handle ?? "?"}`
          : e.kind === "released"
            ? (data.outcome ?? "")
            : e.kind === "preventable_duplicate"
              ? `could have used ${(data.candidates ?? []).join(", ")}`
              : "";
      return [relativeTime(e.at).padEnd(12), e.host ?? "-", e.kind.padEnd(21), e.handle ?? "-", e.owner ? `owner ${e.owner}` : "", detail]
        .filter(Boolean)
        .join("  ");
    })
    .join("\n");
}

function renderTrust(r: TrustResult): string {
  if (!r.ok) return [`refused: ${r.reasons.map((x) => x.message).join("; ")}`, ...nextLines(r.reasons, {}, "  ")].join("\n");
  const lines: string[] = [];
  if (r.source !== null && r.configHash !== null)
    lines.push(`trusted ${escapeControl(r.source)} (sha256 ${r.configHash.slice(0, 12)}); its bootstrap.run and runtime.probe commands may now run`);
  for (const p of r.programs) lines.push(escapeControl(`trusted ${p.key} = ${p.value} (the repository's config): it may now run in Orchard's git calls`));
  lines.push("a program setting added or changed later, from any source, stays off until orchard trust is run again");
  return lines.join("\n");
}

export function register(program: Command): void {
  program
    .command("recycle")
    .description("give a released (terminal) worktree new work: switch, clean, move to the new handle, lock")
    .argument("<handle|path>")
    .requiredOption("--branch <new>", "the new branch (a literal branch name)")
    .option("--base <ref>", "start point of a new branch (default: the default branch)")
    .option("--task <id>", "the new work's task (env ORCHARD_TASK)")
    .option("--owner <id>", "the agent/session taking the lease (env ORCHARD_OWNER)")
    .option("--pid <n>", "the owner's process id (its start time is recorded)")
    .option("--dry-run", "prove and report, change nothing")
    .action((target: string, opts: Record<string, unknown>, cmd: Command) =>
      runWith(cmd, (o) => o.recycle({ target, ...(opts as { branch: string }) }), renderAdd),
    );

  program
    .command("lineage")
    .description("the events of a handle (following recycles) or of a task, oldest first; a managed worktree's path or branch names its handle")
    .argument("<handle|task>")
    .action((target: string, _opts: unknown, cmd: Command) => runWith(cmd, (o) => o.lineage({ target }), renderLineage));

  program
    .command("trust")
    .description(
      "trust the repository's .orchard.json and the program settings of its .git/config as they are now, so they may run (refused from inside a worktree)",
    )
    .option("--yes", "confirm without a terminal on stdin: a person's flag, never an agent's (docs/commands.md)")
    .action((opts: { yes?: boolean }, cmd: Command) => runWith(cmd, (o) => o.trust(opts.yes === true ? { yes: true } : {}), renderTrust));
}
