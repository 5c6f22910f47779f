// The MCP tool table (SPEC §3.12): every command a suggestion tells an agent to run, never `trust`
// (an agent must not approve the commands of the repository it works in). Each tool is one Orchard method plus the SAME zod schema the
// library validates with (src/core/shared/input/inputs.ts), extended with `repo`. The JSON schema a client sees
// is generated from that schema, so the library, the CLI and the tools cannot disagree.
// Adding a tool = one line in TOOLS, a row in annotations.ts and its result in outputs.ts.
import * as z from "zod";
import type { Orchard } from "../core/orchard.js";
import {
  AddInput,
  AdoptInput,
  CleanupApplyInput,
  CleanupPlanInput,
  CleanupResumeInput,
  CleanupRunInput,
  CleanupWaveInput,
  BootstrapInput,
  HeartbeatInput,
  MergeInput,
  PathInput,
  RemoveInput,
  SalvagePruneInput,
  HygieneInput,
  LineageInput,
  ListInput,
  ReapOrphansInput,
  RecycleInput,
  ReleaseInput,
  SalvageListInput,
  SalvageRestoreInput,
  StatusInput,
} from "../core/shared/input/inputs.js";
import { ANNOTATIONS, type ToolAnnotations, type ToolName } from "./annotations.js";
import { outputJsonSchema } from "./outputs.js";

/** The Orchard methods that take one options object and resolve to a JSON result. */
export type ToolMethod = {
  [K in keyof Orchard]: Orchard[K] extends (options: never) => Promise<{ ok: boolean }> ? K : never;
}[keyof Orchard];

export interface Tool {
  name: ToolName;
  /** The Orchard method it runs; null for a tool answered without the library object (`local`). */
  method: ToolMethod | null;
  local?: (input: Record<string, unknown>) => Promise<{ ok: boolean }>;
  description: string;
  /** The library's schema plus `repo`; strict, so an unknown key is an error naming it. */
  input: z.ZodObject;
  /** What the tool does to the world (annotations.ts). */
  annotations: ToolAnnotations;
}

const RepoField = z.string().optional().describe("a path inside the repository (default: the server's working directory)");

function tool(name: ToolName, method: ToolMethod, input: z.ZodObject, description: string): Tool {
  return { name, method, description, input: input.extend({ repo: RepoField }), annotations: ANNOTATIONS[name] };
}

/** hygiene's input without `html` or `publish`: the report alone, which writes nothing, the registry included (orchard_hygiene_html writes the page; orchard_hygiene_fleet publishes). */
const ReportInput = (): z.ZodObject => HygieneInput().omit({ html: true, publish: true });

const ExplainInput = z
  .object({ code: z.string().optional().describe("a reason code (dirty, live_owner…) or a disposition (needs_salvage…); none: every code") })
  .strict();

const explainTool: Tool = {
  name: "orchard_explain",
  method: null,
  local: async (input) => (await import("../core/explain/index.js")).explain(typeof input.code === "string" ? input.code : undefined),
  description:
    "What a reason code or a disposition means and what to do next; without code, every code. Every reason in a result also carries next: the tool call (or, for a person, the command) that moves it on, or null.",
  input: ExplainInput,
  annotations: ANNOTATIONS.orchard_explain,
};

export const TOOLS: readonly Tool[] = [
  tool(
    "orchard_add",
    "add",
    AddInput(),
    "Take a worktree for a branch: adopt the exact handle, reuse or recycle a compatible one, or create one. Call before starting work; pass task (an issue URL, owner/repo#N, #N or any id: every spelling of one task is one task) and owner so a crashed session's work can be found again. policy decides what happens to existing worktrees of the same task: isolated (default), reuse-compatible, recycle-terminal, or exclusive-task to refuse while another owner holds the task. Without pid the lease names this server's MCP client process (its parent, past npx/npm exec/sh launchers), so it dies with the client; pass pid to name another process.",
  ),
  tool(
    "orchard_release",
    "release",
    ReleaseInput().omit({ force: true }),
    "Give a worktree back when the work is finished (outcome done, abandoned or failed). Idempotent.",
  ),
  tool(
    "orchard_heartbeat",
    "heartbeat",
    HeartbeatInput(),
    "Renew the lease on a worktree during long work so nobody reaps it. Without pid the lease names this server's MCP client process (its parent, past npx/npm exec/sh launchers), so it dies with the client; pass pid to name another process.",
  ),
  tool(
    "orchard_bootstrap",
    "bootstrap",
    BootstrapInput(),
    "Run the bootstrap (copy, context, the repository's trusted commands such as npm ci) of an existing worktree whose install was skipped (config_untrusted, once the person has run orchard trust) or is gone. Refused over work: a dirty worktree, one another owner holds, an operation in progress.",
  ),
  tool("orchard_status", "status", StatusInput(), "Facts of one worktree (handle, path or branch): dirty, unpushed, merged, liveness, lock, fingerprints."),
  tool("orchard_list", "list", ListInput(), "Every linked worktree of the repository, managed and foreign, with its facts."),
  tool(
    "orchard_recycle",
    "recycle",
    RecycleInput(),
    "Reuse a released worktree for a new branch, after proving it holds nothing of value (clean, work merged or pushed, nobody live). Without pid the lease names this server's MCP client process (its parent, past npx/npm exec/sh launchers), so it dies with the client; pass pid to name another process.",
  ),
  tool(
    "orchard_hygiene",
    "hygiene",
    ReportInput(),
    "One truthful report, read-only: every worktree gets a disposition (live, reclaimable, reapable, needs_salvage, idle, missing, husk, unknown) with its reasons (each with next, the call that moves it on), plus duplicate tasks and the cleanup backlog.",
  ),
  tool(
    "orchard_hygiene_html",
    "hygiene",
    HygieneInput()
      .omit({ publish: true })
      .extend({ html: z.string().min(1).describe("the file to write the self-contained HTML page to (replaced if it exists)") }),
    "The hygiene report, also written as a self-contained HTML page to the file html names (for a person to open). The result is the same report as orchard_hygiene's, with html set to the file written.",
  ),
  tool(
    "orchard_hygiene_fleet",
    "hygieneFleet",
    HygieneInput(),
    "hygiene across the hosts of a shared registry: publishes this host's summary, then duplicate-task groups across hosts (another host's liveness is its heartbeat alone), preventable duplicates by host, and each host's last published backlog with its age.",
  ),
  tool(
    "orchard_reap_orphans",
    "reapOrphans",
    ReapOrphansInput(),
    "Startup sweep: remove worktrees whose locking session (Claude Code, Orchard lease, pid) is dead and whose branch is merged. Dirty ones are kept unless salvage is true.",
  ),
  tool(
    "orchard_cleanup_plan",
    "cleanupPlan",
    CleanupPlanInput(),
    "Plan a clean-up (stored, with preconditions per item; default: reclaimable, reapable, missing). Changes nothing; apply it with orchard_cleanup_apply.",
  ),
  tool(
    "orchard_cleanup_apply",
    "cleanupApply",
    CleanupApplyInput(),
    "Apply a stored clean-up plan; each item's preconditions are re-checked at the moment of use, a changed worktree is skipped. If it stops early (status needs_resume), call it again with the same planId.",
  ),
  tool(
    "orchard_cleanup_wave",
    "cleanupWave",
    CleanupWaveInput(),
    "Merge a wave of agent worktrees back into the target and remove them (manifest: path of a JSON file, best absolute; relative paths resolve against the server's working directory). Stops at the first blocked entry unless continueOnBlock; dryRun judges every entry and changes nothing.",
  ),
  tool(
    "orchard_cleanup_resume",
    "cleanupResume",
    CleanupResumeInput(),
    "Finish a clean-up plan that stopped early (status needs_resume, a budget or a crash): the items not yet done are re-checked and applied.",
  ),
  tool(
    "orchard_cleanup_run",
    "cleanupRun",
    CleanupRunInput(),
    "Plan and apply clean-up until nothing more can be done (a fixed point). The same preconditions as plan + apply; every worktree kept is listed with its reasons.",
  ),
  tool(
    "orchard_adopt",
    "adopt",
    AdoptInput(),
    "Register a foreign worktree (e.g. one a harness created under .claude/worktrees) as managed, in place, so it gets a lease, a task and a place in hygiene. Without owner the lease keeps the holder its lock names; with owner and without pid it names this server's MCP client process (its parent, past npx/npm exec/sh launchers).",
  ),
  tool(
    "orchard_lineage",
    "lineage",
    LineageInput(),
    "The history of a handle (created, released, recycled into…) or of a task across every worktree that carried it.",
  ),
  tool("orchard_salvage_list", "salvageList", SalvageListInput(), "Every salvage ref of the repository: work saved from worktrees before they were removed."),
  tool(
    "orchard_salvage_restore",
    "salvageRestore",
    SalvageRestoreInput(),
    "Bring salvaged work back: a new worktree at the salvage's parent commit with the saved files laid over it as uncommitted changes.",
  ),
  tool(
    "orchard_remove",
    "remove",
    RemoveInput(),
    "Remove one worktree when its work is safe: clean, every commit merged or pushed, nobody working in it (cleanup's proofs, re-checked at the moment of use). A refusal lists every reason and `next`, the call that moves it on; salvage: true saves uncommitted or unpushed work to a salvage ref first. Its branch is deleted only when orchard made it and it is merged.",
  ),
  tool(
    "orchard_path",
    "path",
    PathInput(),
    "The absolute path of a worktree, named by handle, path, branch, or task (any spelling of it: the most recently used active worktree of that task); no target, `^` or the default branch: the primary.",
  ),
  tool(
    "orchard_merge",
    "merge",
    MergeInput(),
    "Merge one worktree's branch back into the target (default: the primary's branch), then remove the worktree and delete the branch, under cleanup-wave's proofs (clean, nobody inside, no deletions unless allowDeletions, a conflict touches nothing). strategy: merge (a merge commit, default), squash or rebase; the commit carries git's message (Merge branch '<b>'; a squash lists its commits) unless message is given. The result is this one worktree's (action, reasons with next). Call it again after fixing a block: it finishes what is left.",
  ),
  tool(
    "orchard_salvage_prune",
    "salvagePrune",
    SalvagePruneInput(),
    "Delete salvage refs whose content is merged into the default branch or pushed; with olderThan also older refs, whatever they hold. Every pruned ref is listed with its commit.",
  ),
  explainTool,
];

/** The JSON schema a client sees for a tool's input. */
export function inputJsonSchema(tool: Tool): { type: "object"; [key: string]: unknown } {
  const schema = z.toJSONSchema(tool.input, { io: "input", target: "draft-7" }) as Record<string, unknown>;
  delete schema.$schema;
  return { ...schema, type: "object" };
}

/** The JSON schema of a tool's result (its `structuredContent`). */
export function outputSchema(tool: Tool): { type: "object"; [key: string]: unknown } {
  return outputJsonSchema(tool.name);
}

export function findTool(name: string): Tool | undefined {
  return TOOLS.find((t) => t.name === name);
}
