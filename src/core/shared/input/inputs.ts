// The input schema of every operation, shared by the library, the CLI and the MCP server (whose
// tool input schemas are generated from these): flags in camelCase, positional arguments by name.
// Semantic checks (branch names, durations, pids) happen in core/shared/input/validate.ts.
import * as z from "zod";
import { usageError } from "../errors.js";

/**
 * The closed sets an option takes: the schemas below validate with them and the library's option
 * types are made of them (AddOptions.policy, ReleaseOptions.outcome, ReapOptions.merged), so a
 * value the CLI refuses does not compile either.
 */
export const POLICIES = ["isolated", "reuse-compatible", "recycle-terminal", "exclusive-task"] as const;
export type Policy = (typeof POLICIES)[number];
export const OUTCOMES = ["done", "abandoned", "failed"] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const MERGE_MODES = ["ancestor", "equivalent"] as const;
export type MergeMode = (typeof MERGE_MODES)[number];

/**
 * A schema built on first use, then kept: a process builds only the schemas it parses with (each
 * command one; the MCP server all of them, once). Building every schema at start cost each command
 * ~8 ms of CPU.
 */
function lazy<S>(build: () => S): () => S {
  let built: S | undefined;
  return () => (built ??= build());
}

const text = lazy(() => z.string());
const pid = lazy(() => z.union([z.number().int(), z.string().regex(/^\d+$/, "digits")]));
/**
 * The fields several schemas share, each built on its first use: a schema's destructuring builds the
 * parts it names, not the others (each `describe` is a schema of its own, ≈ 0.3 ms in a command's
 * cold code).
 */
const shared = {
  text,
  pid,
  target: lazy(() => text().describe("the worktree: a handle (app@feat-a), a worktree path, or the branch of a managed worktree")),
  owner: lazy(() => text().describe("the agent/session taking or holding the lease (default: ORCHARD_OWNER)")),
  ownerPid: lazy(() => pid().describe("the owner's process id: the lease dies with that process")),
  ttl: lazy(() => text().describe("lease time to live, e.g. 30m, 2h (default 2h, config lease.ttl)")),
  task: lazy(() => text().describe("the task: an id or a forge reference/URL (default: ORCHARD_TASK)")),
  allRepos: lazy(() => z.boolean().describe("every repo the workspace knows, not just this one")),
  include: lazy(() => z.union([text(), z.array(text())]).describe("dispositions to plan: reclaimable,reapable,missing,husk,needs_salvage")),
};
type Parts = { [K in keyof typeof shared]: ReturnType<(typeof shared)[K]> };
/** The shared fields as getters: `const { target } = parts()` builds `target` (and `text`) only. */
const PARTS = Object.defineProperties({}, Object.fromEntries(Object.entries(shared).map(([name, build]) => [name, { get: build, enumerable: true }]))) as Parts;
const parts = (): Parts => PARTS;

export const AddInput = lazy(() => {
  const { text, owner, ownerPid, ttl, task } = parts();
  return z
    .object({
      branch: text
        .optional()
        .describe("the branch (a literal branch name); without it, the branch is derived from the task (T-123 → t-123, an issue URL → <repo>-<n>)"),
      base: text.optional().describe("start point for a new branch (default: the default branch)"),
      task: task.optional(),
      owner: owner.optional(),
      pid: ownerPid.optional(),
      ttl: ttl.optional(),
      policy: z
        .enum(POLICIES)
        .optional()
        .describe(
          "what to do with existing worktrees of the same task or patch (default isolated): isolated = always create a new worktree (a reusable one is recorded as a preventable duplicate); reuse-compatible = take over the first eligible active candidate; recycle-terminal = recycle a released worktree that passes the recycle proof; exclusive-task = refuse (task_held_elsewhere) while another owner's live lease holds the same task, else as reuse-compatible",
        ),
      resume: z.boolean().optional().describe("adopt a dirty worktree of the same task"),
      bootstrap: z.boolean().optional().describe("false skips bootstrap (--no-bootstrap)"),
      dryRun: z.boolean().optional().describe("decide and report, change nothing"),
    })
    .strict();
});

export const ReleaseInput = lazy(() => {
  const { target, owner } = parts();
  return z
    .object({
      target: target.describe("the worktree: a handle, a worktree path, the branch of a managed worktree, or a task (one active worktree)"),
      outcome: z.enum(OUTCOMES).optional().describe("how the work ended (default done)"),
      owner: owner.optional(),
      force: z.boolean().optional().describe("a person's override: release a live lease this process does not hold"),
    })
    .strict();
});

export const HeartbeatInput = lazy(() => {
  const { target, owner, ownerPid, ttl } = parts();
  return z.object({ target, owner: owner.optional(), ttl: ttl.optional(), pid: ownerPid.optional() }).strict();
});

export const BootstrapInput = lazy(() => {
  const { target, owner } = parts();
  return z
    .object({
      target: target.describe("the worktree: a handle, a worktree path, the branch of a managed worktree, or a task"),
      owner: owner.optional().describe("who asks (default: ORCHARD_OWNER): its own lease does not block"),
      dryRun: z.boolean().optional().describe("prove and report, run nothing"),
    })
    .strict();
});

export const StatusInput = lazy(() => {
  const { target } = parts();
  return z.object({ target }).strict();
});

export const ListInput = lazy(() => {
  const { allRepos } = parts();
  return z.object({ allRepos: allRepos.optional(), full: z.boolean().optional().describe("add dirty and merged facts") }).strict();
});

export const ReapOrphansInput = lazy(() => {
  const { text } = parts();
  return z
    .object({
      guard: text.optional().describe("skip locks younger than this (default 5m, config reap.guard)"),
      salvage: z.boolean().optional().describe("salvage dirty worktrees to a ref, then reap them"),
      includeResumable: z
        .boolean()
        .optional()
        .describe(
          "also reap worktrees whose Claude Code session can still be resumed (kept by default while its transcript is younger than cleanupPeriodDays)",
        ),
      merged: z.enum(MERGE_MODES).optional().describe("which merge proofs count (default ancestor)"),
      dryRun: z.boolean().optional().describe("decide and report, change nothing"),
    })
    .strict();
});

export const SalvageListInput = lazy(() => z.object({}).strict());

export const SalvageRestoreInput = lazy(() => {
  const { text } = parts();
  return z
    .object({ ref: text.describe("a salvage ref (refs/orchard/salvage/…)"), branch: text.optional().describe("the branch of the new worktree") })
    .strict();
});

export const STRATEGIES = ["merge", "squash", "rebase"] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** The flags a wave and `orchard merge` share. */
const mergeFlags = lazy(() => {
  const { text } = parts();
  return {
    into: text.optional().describe("the worktree to merge into (default: the primary)"),
    strategy: z
      .enum(STRATEGIES)
      .optional()
      .describe(
        "how the branch lands on the target (default merge): merge = a merge commit (--no-ff); squash = one commit with the branch's changes; rebase = the branch's commits replayed onto the target, which then fast-forwards",
      ),
    allowDeletions: z.boolean().optional().describe("merge branches that delete files"),
    allowLive: z.boolean().optional().describe("remove worktrees a process works in (the executors are known to be done)"),
    dryRun: z.boolean().optional().describe("judge every entry and return the plan; change nothing"),
  };
});

export const MergeInput = lazy(() => {
  const { target, text } = parts();
  return z
    .object({
      target: target.describe("the worktree to merge back and remove: a handle, a path, or its branch"),
      ...mergeFlags(),
      message: text.optional().describe("the commit message (default git's: Merge branch '<branch>', or a squash's list of the squashed commits)"),
    })
    .strict();
});

export const RemoveInput = lazy(() => {
  const { target } = parts();
  return z
    .object({
      target: target.describe("the worktree to remove: a handle, a path, or its branch"),
      salvage: z.boolean().optional().describe("save uncommitted or unpushed work to a salvage ref first, then remove"),
      dryRun: z.boolean().optional().describe("prove and report, change nothing"),
    })
    .strict();
});

export const PathInput = lazy(() => {
  const { text } = parts();
  return z
    .object({
      target: text
        .optional()
        .describe("a handle, a worktree path, the branch of a managed worktree, or a task (any spelling); none, `^` or the default branch: the primary"),
    })
    .strict();
});

export const SalvagePruneInput = lazy(() => {
  const { text } = parts();
  return z
    .object({
      olderThan: text.optional().describe("also prune salvage refs older than this, e.g. 30d, whose work is nowhere else (listed before they go)"),
      dryRun: z.boolean().optional().describe("list what would be pruned; change nothing"),
    })
    .strict();
});

export const CleanupWaveInput = lazy(() => {
  const { text } = parts();
  return z
    .object({
      manifest: text.describe("path of the wave manifest (JSON)"),
      strategy: mergeFlags().strategy,
      into: text.optional().describe("the worktree to merge into (default: the primary)"),
      continueOnBlock: z.boolean().optional().describe("a blocked entry does not stop the wave"),
      allowDeletions: z.boolean().optional().describe("merge branches that delete files"),
      allowLive: z.boolean().optional().describe("remove worktrees a process works in (the executors are known to be done)"),
      dryRun: z.boolean().optional().describe("judge every entry and return the plan; change nothing"),
    })
    .strict();
});

export const AdoptInput = lazy(() => {
  const { text, owner, ownerPid, ttl, task } = parts();
  return z
    .object({
      path: text.describe("the foreign worktree to register as managed"),
      task: task.optional(),
      owner: owner.optional().describe("the lease's owner (default: the owner its lock names)"),
      pid: ownerPid.optional(),
      ttl: ttl.optional(),
    })
    .strict();
});

export const RecycleInput = lazy(() => {
  const { text, target, owner, ownerPid, task } = parts();
  return z
    .object({
      target: target.describe("the terminal worktree to recycle: a handle, a path, or its branch"),
      branch: text.describe("the new branch (a literal branch name)"),
      base: text.optional().describe("start point of a new branch (default: the default branch)"),
      task: task.optional(),
      owner: owner.optional(),
      pid: ownerPid.optional(),
      dryRun: z.boolean().optional().describe("prove and report, change nothing"),
    })
    .strict();
});

export const LineageInput = lazy(() => {
  const { text } = parts();
  return z.object({ target: text.describe("a handle, a task (any spelling of it), or the path or branch of a managed worktree") }).strict();
});

export const TrustInput = lazy(() =>
  z.object({ yes: z.boolean().optional().describe("a person confirms trust without a terminal on stdin (never an agent's flag)") }).strict(),
);

export const HygieneInput = lazy(() => {
  const { text, allRepos } = parts();
  return z
    .object({
      allRepos: allRepos.optional(),
      disk: z.boolean().optional().describe("measure bytes per worktree"),
      diskBudget: text.optional().describe("stop measuring after this long, e.g. 2m (default 5m)"),
      html: text.optional().describe("also write a self-contained HTML page to this file"),
      publish: z
        .boolean()
        .optional()
        .describe("also publish this host's summary for hygiene --fleet (the CLI's hygiene does; the report alone writes nothing)"),
    })
    .strict();
});

export const CleanupPlanInput = lazy(() => {
  const { text, allRepos, include } = parts();
  return z
    .object({
      allRepos: allRepos.optional(),
      include: include.optional(),
      salvage: z.boolean().optional().describe("plan needs_salvage work: salvage ref first, then remove"),
      olderThan: text.optional().describe("only worktrees whose last activity is older than this, e.g. 2d"),
      includeResumable: z
        .boolean()
        .optional()
        .describe(
          "also plan worktrees whose Claude Code session can still be resumed (kept by default while its transcript is younger than cleanupPeriodDays)",
        ),
    })
    .strict();
});

export const CleanupApplyInput = lazy(() => {
  const { text } = parts();
  return z
    .object({
      planId: text.describe("the plan to apply"),
      limit: z
        .union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/, "a positive integer")])
        .optional()
        .describe("act on at most this many items"),
      budget: text.optional().describe("start no new item after this long, e.g. 10m"),
    })
    .strict();
});

export const CleanupResumeInput = lazy(() => {
  const { text } = parts();
  return z.object({ planId: text.describe("the plan to resume") }).strict();
});

export const CleanupRunInput = lazy(() =>
  CleanupPlanInput().extend({
    untilFree: parts()
      .text.optional()
      .describe("stop once the workspace's filesystem has this much free: a size (10GiB) or a percentage of it (5%); a dry run ignores it"),
  }),
);

/**
 * An unknown key, with the one spelling of a negated flag: the CLI's `--no-bootstrap` is the
 * option `bootstrap: false`, and `noBootstrap` says so instead of being a bare unknown key.
 */
function unknownOption(key: string, schema: z.ZodType): string {
  const positive = /^no[A-Z]/.test(key) ? key.charAt(2).toLowerCase() + key.slice(3) : null;
  if (positive === null || !(schema instanceof z.ZodObject) || !(positive in schema.shape)) return `unknown option ${key}`;
  const flag = positive.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return `unknown option ${key}: use ${positive}: false (the CLI's --no-${flag})`;
}

/** Validates an options object; an unknown key or a wrong type is invalid input naming the key. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => unknownOption(key, schema)).join("; ");
    return `${path || "(input)"}: ${issue.message}`;
  });
  throw usageError("invalid_argument", issues.join("; "));
}
