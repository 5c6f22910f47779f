// The library (SPEC §7): one object per workspace; each method takes one options object and
// resolves to the same object as the CLI's --json. It never prints and never exits. Each method
// imports its capability when called, so a process pays only for the commands it runs.
import { resolve } from "node:path";
import { Registry, RegistryError } from "../registry/index.js";
import { registryUrl } from "./shared/registry-url.js";
import { locateRepo, refreshRepo, repoStamp, resolveRepo, type RepoContext, type RepoLocation } from "./shared/repo/repo.js";
import { withMutationLockIfFree, HOST } from "./ownership/index.js";
import { canonicalTask } from "./shared/naming/task.js";
import { resolving } from "./resolving.js";
import { defaultHome, openWorkspace, type Ctx, type Workspace } from "./shared/context.js";
import { requireNotMoved } from "./workspace/index.js";
import { finishTrash, flushBackground } from "./shared/removal/trash.js";
import { guardRepoPrograms } from "./shared/program-policy.js";
import { keepBatchShell } from "../git/run.js";
import { withNext } from "./next/index.js";
import type { AddOptions, AddResult, AdoptOptions, AdoptResult, BootstrapOptions, BootstrapResult } from "./admission/index.js";
import type { ReleaseOptions, HeartbeatOptions, LeaseResult } from "./lifecycle/index.js";
import type { StatusResult, ListResult } from "./inspect/index.js";
import { AddInput, BootstrapInput, HeartbeatInput, ListInput, parseInput, ReleaseInput, StatusInput } from "./shared/input/inputs.js";
import { AdoptInput, CleanupWaveInput, ReapOrphansInput, SalvageListInput, SalvageRestoreInput } from "./shared/input/inputs.js";
import type { ReapOptions, ReapResult } from "./reap/index.js";
import type { RestoreOptions, RestoreResult, SalvageListResult, SalvagePruneOptions, SalvagePruneResult } from "./salvage/index.js";
import type { MergeOptions, MergeResult, WaveOptions, WaveResult } from "./wave/index.js";
import { LineageInput, RecycleInput, TrustInput, RemoveInput, PathInput, MergeInput, SalvagePruneInput } from "./shared/input/inputs.js";
import type { RemoveOptions, RemoveResult } from "./cleanup/index.js";
import type { PathOptions, PathResult } from "./navigate/index.js";
import type { RecycleOptions, LineageResult } from "./recycle/index.js";
import type { TrustResult } from "./bootstrap/index.js";
import { CleanupApplyInput, CleanupPlanInput, CleanupResumeInput, CleanupRunInput, HygieneInput } from "./shared/input/inputs.js";
import type { CleanupApplyOptions, ProgressListener, CleanupPlanOptions, DryRunResult, PlanResult, RunResult, ApplyResult } from "./cleanup/index.js";
import type { FleetHygieneReport, HygieneOptions, HygieneReport } from "./hygiene/index.js";
import type {
  HostIdentity,
  InstallOptions,
  InstallResult,
  UninstallOptions,
  UninstallResult,
  WorktreeCreateResult,
  WorktreeRemoveResult,
} from "./claude-code/index.js";

import type { OpenOptions, RegistryUnreachable, RepoOption } from "./orchard-options.js";
export type { OpenOptions, RegistryUnreachable, RepoOption } from "./orchard-options.js";

export class Orchard {
  /** Resolved repos by path (each with the stamp it was resolved under). */
  private readonly repos = new Map<string, RepoContext>();
  /** Why the registry could not be reached, when opened with whenUnreachable "local". */
  unreachable: string | null = null;

  private constructor(
    readonly registry: Registry,
    readonly workspace: Workspace,
    readonly repoPath: string,
    /** locateRepo of repoPath, begun by open (taken by the first context of that path). */
    private located: Promise<RepoLocation> | null = null,
  ) {}

  /**
   * Opens the workspace (`~/.orchard`, or `home`, or `ORCHARD_HOME`) and its registry, for the
   * repository around `repo` (default: the current directory). Call {@link Orchard.close} when done.
   * Throws `registry_unreachable` when a fleet registry does not answer (unless `whenUnreachable: "local"`).
   * @example
   * const orchard = await Orchard.open({ repo: "/src/app" });
   * try { const wt = await orchard.add({ branch: "feat-login", owner: "agent-1" }); } finally { await orchard.close(); }
   */
  static async open(options: OpenOptions = {}): Promise<Orchard> {
    const repoPath = resolve(options.repo ?? process.cwd());
    if (options.warm === true) keepBatchShell();
    const url = registryUrl(options.registry ?? (process.env.ORCHARD_REGISTRY || undefined));
    const workspace = openWorkspace(options.home ?? defaultHome(), options.home !== undefined || Boolean(process.env.ORCHARD_HOME), { url, host: HOST });
    // git's first answer (where the repo keeps its git dirs) is asked for now and arrives while
    // the registry opens; a failure is the first context's to report, as it was
    const located = locateRepo(repoPath);
    located.catch(() => undefined);
    const hooks = { canonicalTask };
    if (url === null) requireNotMoved(workspace.home);
    finishTrash(workspace.home); // what a crashed removal left (trash.ts)
    try {
      const registry = await Registry.open({ home: workspace.home, url, host: HOST }, hooks);
      return new Orchard(registry, workspace, repoPath, located);
    } catch (error) {
      if (!(error instanceof RegistryError && error.code === "registry_unreachable" && options.whenUnreachable === "local")) throw error;
      const orchard = new Orchard(await Registry.detached(HOST, hooks), workspace, repoPath, located);
      orchard.unreachable = error.message;
      return orchard;
    }
  }

  /** The location open began asking git for, when `path` is the one it asked about; once. */
  private takeLocated(path: string): Promise<RepoLocation> | undefined {
    const located = path === this.repoPath ? this.located : null;
    if (located) this.located = null;
    return located ?? undefined;
  }

  /**
   * The operation context for a repo path (default: the one given to open). A repo resolved by an
   * earlier call is reused while its stamp holds (the path exists, the repo's config file is the
   * same), with its configuration read again and no listing of that call: a long-lived process
   * (the MCP server) pays git's processes for resolving a repo once, not on every call.
   */
  async context(repo?: string, located?: RepoLocation, options: { listing?: boolean } = {}): Promise<Ctx> {
    const path = resolve(repo ?? this.repoPath);
    const cached = this.repos.get(path);
    let context: RepoContext;
    if (cached && repoStamp(path, cached) === cached.stamp) context = refreshRepo(cached);
    else {
      context = await resolveRepo(this.registry, path, this.workspace, located ?? (await this.takeLocated(path)), options);
      this.repos.set(path, { ...context, listing: undefined, listingLock: undefined });
    }
    await guardRepoPrograms(context, this.registry); // before any git call that could run a program the repo names
    const ctx: Ctx = { registry: this.registry, workspace: this.workspace, repo: context };
    // any command of this host drops the phantom `creating` rows of the repo (SPEC v3 §5)
    if ((await this.registry.worktrees.creating(context.identity)).length > 0) {
      const { settleCreating } = await import("./admission/index.js");
      ctx.settledCreating = (await settleCreating(ctx)).map((r) => r.handle);
    }
    return ctx;
  }

  /**
   * `fn` on the repo's context, with the repo's mutation lock taken (when free) before git lists
   * the worktrees: a mutation then decides on that one listing instead of listing again. `listing:
   * false` (add, remove): none is read then where the primary is told without it; the mutation lists under
   * the lock when its decision needs the listing (an exact repeat, a remove: only their worktree's own entry).
   */
  private async lockedContext<T>(repo: string | undefined, fn: (ctx: Ctx) => Promise<T>, options: { listing?: boolean } = {}): Promise<T> {
    const path = resolve(repo ?? this.repoPath);
    const cached = this.repos.get(path);
    const located = cached && repoStamp(path, cached) === cached.stamp ? undefined : await (this.takeLocated(path) ?? locateRepo(path));
    return withMutationLockIfFree(located?.commonDir ?? (cached as RepoContext).commonDir, async () => fn(await this.context(repo, located, options)));
  }

  /**
   * Takes a worktree for `branch` (or one derived from `task`), created or reused under `policy`, leased to `owner`, bootstrapped.
   * @returns `ok: true` with `handle`, `path`, `lease`; or a refusal, `ok: false` with `reasons` (each with `next`).
   */
  async add(options: AddOptions & RepoOption): Promise<AddResult> {
    const { add } = await import("./admission/index.js");
    const { repo, ...rest } = options;
    const input = parseInput(AddInput(), rest) as AddOptions; // bad input: refused before git or the lock is touched
    // a dry run takes no lock; any other add decides under it (and lists the worktrees under it only when its decision needs them)
    if (input.dryRun === true) return withNext("add", options, await add(await this.context(repo), input));
    return withNext("add", options, await this.lockedContext(repo, async (ctx) => add(ctx, input), { listing: false }));
  }

  async release(options: ReleaseOptions & RepoOption): Promise<LeaseResult> {
    const { release } = await import("./lifecycle/index.js");
    const { repo, ...rest } = options;
    const input = parseInput(ReleaseInput(), rest) as ReleaseOptions;
    return withNext("release", options, await this.lockedContext(repo, async (ctx) => release(ctx, input)));
  }

  async bootstrap(options: BootstrapOptions & RepoOption): Promise<BootstrapResult> {
    const { bootstrapWorktree } = await import("./admission/index.js");
    const { repo, ...rest } = options;
    const input = parseInput(BootstrapInput(), rest) as BootstrapOptions;
    return withNext("bootstrap", options, await this.lockedContext(repo, (ctx) => bootstrapWorktree(ctx, input)));
  }

  async heartbeat(options: HeartbeatOptions & RepoOption): Promise<LeaseResult> {
    const { heartbeat } = await import("./lifecycle/index.js");
    const { repo, ...rest } = options;
    const input = parseInput(HeartbeatInput(), rest) as HeartbeatOptions;
    return withNext("heartbeat", options, await this.lockedContext(repo, async (ctx) => heartbeat(ctx, input)));
  }

  async status(options: { target: string } & RepoOption): Promise<StatusResult & RegistryUnreachable> {
    const { status } = await import("./inspect/index.js");
    const { repo, ...rest } = options;
    return withNext("status", options, this.noteUnreachable(await status(await this.context(repo), parseInput(StatusInput(), rest))));
  }

  /** Marks a result answered from this host's git facts alone (the registry out of reach). */
  private noteUnreachable<R extends object>(result: R): R & RegistryUnreachable {
    return this.unreachable === null ? result : { ...result, registryUnreachable: this.unreachable };
  }

  async list(options: { full?: boolean; allRepos?: boolean } & RepoOption = {}): Promise<ListResult & RegistryUnreachable> {
    const { repo, ...rest } = options;
    const parsed = parseInput(ListInput(), rest);
    const load = import("./inspect/index.js"); // compiled while git resolves the repo; and plain list reads what needs no git meanwhile
    const [{ listRepo }, ctx, beside] = await Promise.all([load, this.context(repo), load.then((i) => i.readBesideListing(parsed, repo ?? this.repoPath))]);
    const main = await listRepo(ctx, parsed, beside);
    if (!parsed.allRepos) return withNext("list", options, this.noteUnreachable({ ok: true as const, ...main }));
    const others = [];
    for (const known of await this.registry.repos.all()) {
      if (known.identity === main.repo.identity) continue;
      try {
        others.push(await listRepo(await this.context(known.primaryPath), parsed));
      } catch {
        // a repo that moved or was deleted since it was recorded: nothing to list there
      }
    }
    const worktrees = [...main.worktrees, ...others.flatMap((o) => o.worktrees)];
    return withNext("list", options, { ok: true, repo: main.repo, worktrees, repos: [main, ...others] });
  }

  /**
   * With the registry out of reach, reap-orphans judges from git's facts but removes nothing: a
   * removal it could not record would leave the fleet's registry wrong (unknown is not safe).
   */
  async reapOrphans(options: ReapOptions & RepoOption = {}): Promise<ReapResult & RegistryUnreachable> {
    const { reapOrphans, requireReapCommandLine } = await import("./reap/index.js");
    const { repo, ...rest } = options;
    const parsed = parseInput(ReapOrphansInput(), rest) as ReapOptions;
    requireReapCommandLine(parsed); // before the repository's config: a bad .orchard.json is not the caller's mistake
    const result = await reapOrphans(await this.context(repo), this.unreachable === null ? parsed : { ...parsed, dryRun: true });
    return withNext("reapOrphans", options, this.noteUnreachable(result));
  }

  async salvageList(options: RepoOption = {}): Promise<SalvageListResult> {
    const { salvageList } = await import("./salvage/index.js");
    const { repo, ...rest } = options;
    parseInput(SalvageListInput(), rest);
    return salvageList(await this.context(repo));
  }

  async salvageRestore(options: RestoreOptions & RepoOption): Promise<RestoreResult> {
    const { salvageRestore } = await import("./salvage/index.js");
    const { repo, ...rest } = options;
    return withNext("salvageRestore", options, await salvageRestore(await this.context(repo), parseInput(SalvageRestoreInput(), rest) as RestoreOptions));
  }

  async cleanupWave(options: WaveOptions & RepoOption): Promise<WaveResult> {
    const { cleanupWave } = await import("./wave/index.js");
    const { repo, ...rest } = options;
    return withNext("cleanupWave", options, await cleanupWave(await this.context(repo), parseInput(CleanupWaveInput(), rest) as WaveOptions));
  }

  async adopt(options: AdoptOptions & RepoOption): Promise<AdoptResult> {
    const { adopt } = await import("./admission/index.js");
    const { repo, ...rest } = options;
    return withNext("adopt", options, await adopt(await this.context(repo), parseInput(AdoptInput(), rest) as AdoptOptions));
  }

  /** Removes one worktree under cleanup's proofs (SPEC v4 §3); `salvage` saves its work first. */
  async remove(options: RemoveOptions & RepoOption): Promise<RemoveResult> {
    const { removeWorktree } = await import("./cleanup/index.js");
    const { repo, ...rest } = options;
    const input = parseInput(RemoveInput(), rest);
    return input.dryRun ? removeWorktree(await this.context(repo), input) : this.lockedContext(repo, (ctx) => removeWorktree(ctx, input), { listing: false });
  }

  /** Where a worktree is, by handle, path, branch or task (SPEC v4 §3). */
  async path(options: PathOptions & RepoOption): Promise<PathResult> {
    const { worktreePath } = await import("./navigate/index.js");
    const { repo, ...rest } = options;
    return worktreePath(await this.context(repo), parseInput(PathInput(), rest));
  }

  /** Merges one worktree's branch back into the target and removes it: cleanup-wave's one-entry form. */
  async merge(options: MergeOptions & RepoOption): Promise<MergeResult> {
    const { mergeOne } = await import("./wave/index.js");
    const { repo, ...rest } = options;
    return withNext("merge", options, await mergeOne(await this.context(repo), parseInput(MergeInput(), rest) as MergeOptions));
  }

  /** Deletes salvage refs whose work is kept elsewhere, or older than `olderThan` (listed). */
  async salvagePrune(options: SalvagePruneOptions & RepoOption = {}): Promise<SalvagePruneResult> {
    const { salvagePrune } = await import("./salvage/index.js");
    const { repo, ...rest } = options;
    return salvagePrune(await this.context(repo), parseInput(SalvagePruneInput(), rest));
  }

  /** Recycles a terminal worktree for new work (SPEC §3.4); resolves like `add`, action `recycled`. */
  async recycle(options: RecycleOptions & RepoOption): Promise<AddResult> {
    const { recycle } = await import("./recycle/index.js");
    const { repo, ...rest } = options;
    return withNext("recycle", options, await recycle(await this.context(repo), parseInput(RecycleInput(), rest) as RecycleOptions));
  }

  /** The events of a handle (following recycles) or of a task, oldest first (SPEC §3.5). */
  async lineage(options: { target: string } & RepoOption): Promise<LineageResult> {
    const { lineage } = await import("./recycle/index.js");
    const { repo, ...rest } = options;
    return lineage(await this.context(repo), parseInput(LineageInput(), rest));
  }

  /** Trusts the repository's config as it is now: its commands may run (SPEC §6). */
  async trust(options: RepoOption & { yes?: boolean } = {}): Promise<TrustResult> {
    const { trust } = await import("./bootstrap/index.js");
    const { repo, ...rest } = options;
    const input = parseInput(TrustInput(), rest) as { yes?: boolean };
    return trust(await this.context(repo), { yes: input.yes === true });
  }

  /** One truthful report: a disposition per worktree, groups, backlog, disk (SPEC §3.6). */
  async hygiene(options: HygieneOptions & RepoOption = {}): Promise<HygieneReport> {
    const { repo, ...rest } = options;
    const parsed = parseInput(HygieneInput(), rest);
    const source = resolving((asked) => this.context(asked), repo);
    const { runHygiene } = await import("./cleanup/index.js");
    return withNext("hygiene", options, await runHygiene(source, repo, parsed));
  }

  /** `hygiene --fleet` (SPEC §5): this host's hygiene (published), then duplicate tasks, preventable duplicates and backlog across hosts. */
  async hygieneFleet(options: HygieneOptions & RepoOption = {}): Promise<FleetHygieneReport> {
    const { runHygieneFleet } = await import("./cleanup/index.js");
    const { repo, ...rest } = options;
    return withNext("hygieneFleet", options, await runHygieneFleet(this, repo, parseInput(HygieneInput(), rest)));
  }

  /** Computes and stores a cleanup plan (SPEC §3.7). */
  async cleanupPlan(options: CleanupPlanOptions & RepoOption = {}): Promise<PlanResult> {
    const { runCleanupPlan } = await import("./cleanup/index.js");
    const { repo, ...rest } = options;
    return withNext("cleanupPlan", options, await runCleanupPlan(this, repo, parseInput(CleanupPlanInput(), rest)));
  }

  /** `cleanup run --dry-run`: the first round's plan (stored, not applied) and the items the real run would refuse (`ok: false`, exit 3). */
  async cleanupDryRun(options: CleanupPlanOptions & RepoOption = {}): Promise<DryRunResult> {
    const { runCleanupDryRun } = await import("./cleanup/index.js");
    const { repo, ...rest } = options;
    return withNext("cleanupDryRun", options, await runCleanupDryRun(this, repo, parseInput(CleanupRunInput(), rest)));
  }

  /** Applies a stored plan: each item re-checked at the moment of use. */
  async cleanupApply(options: CleanupApplyOptions & RepoOption & { onProgress?: ProgressListener | undefined }): Promise<ApplyResult> {
    const { runCleanupApply } = await import("./cleanup/index.js");
    const { repo, onProgress, ...rest } = options;
    return withNext("cleanupApply", options, await runCleanupApply(this, repo, parseInput(CleanupApplyInput(), rest), onProgress));
  }

  /** Finishes a plan, re-checking items a crash left `applying`. */
  async cleanupResume(options: { planId: string; onProgress?: ProgressListener | undefined } & RepoOption): Promise<ApplyResult> {
    const { runCleanupApply } = await import("./cleanup/index.js");
    const { repo, onProgress, ...rest } = options;
    return withNext("cleanupResume", options, await runCleanupApply(this, repo, parseInput(CleanupResumeInput(), rest), onProgress));
  }

  /** Plan and apply until a fixed point. */
  async cleanupRun(options: CleanupPlanOptions & RepoOption & { onProgress?: ProgressListener | undefined } = {}): Promise<RunResult> {
    const { runCleanupRun } = await import("./cleanup/index.js");
    const { repo, onProgress, ...rest } = options;
    return withNext("cleanupRun", options, await runCleanupRun(this, repo, parseInput(CleanupRunInput(), rest), onProgress));
  }

  /**
   * Claude Code's WorktreeCreate hook: `input` is the hook's stdin; the lease goes to `host` (default:
   * the Claude process identified now, see claude-code/ancestry.ts), or to `hostPid` when given.
   */
  async claudeCodeWorktreeCreate(
    input: string,
    options: { policy?: string; hostPid?: number | null; host?: HostIdentity } = {},
  ): Promise<WorktreeCreateResult> {
    const { identifyHost, parseCreatePayload, worktreeCreate } = await import("./claude-code/index.js");
    const payload = parseCreatePayload(input);
    const host: HostIdentity =
      options.host ??
      (options.hostPid === undefined
        ? await identifyHost()
        : options.hostPid === null
          ? { state: "unknown" }
          : { state: "alive", pid: options.hostPid, startTime: null });
    return worktreeCreate(await this.context(payload.cwd), payload, { host, policy: options.policy });
  }

  /** Claude Code's WorktreeRemove hook: release, then remove only what cleanup's proof allows. */
  async claudeCodeWorktreeRemove(input: string): Promise<WorktreeRemoveResult> {
    const { parseRemovePayload, worktreeRemove } = await import("./claude-code/index.js");
    const payload = parseRemovePayload(input);
    return this.lockedContext(payload.cwd, (ctx) => worktreeRemove(ctx, payload)); // its release decides on the listing read under the lock
  }

  /** Claude Code's SubagentStop hook: release the subagent's worktree; remove it only when nothing would be lost. */
  async claudeCodeSubagentStop(input: string): Promise<WorktreeRemoveResult> {
    const { parseSubagentStopPayload, subagentStop } = await import("./claude-code/index.js");
    const payload = parseSubagentStopPayload(input);
    return this.lockedContext(payload.cwd, (ctx) => subagentStop(ctx, payload));
  }

  /** Merge Orchard's hooks into Claude Code's settings (the project scope uses this repo's primary). */
  async claudeCodeInstall(options: Omit<InstallOptions, "primary"> & RepoOption): Promise<InstallResult> {
    const { installHooks } = await import("./claude-code/index.js");
    const { repo, ...rest } = options;
    const primary = rest.scope === "project" ? (await this.context(repo)).repo.primary : "";
    return installHooks({ ...rest, primary });
  }

  /** Remove exactly the hooks install wrote from Claude Code's settings. */
  async claudeCodeUninstall(options: Omit<UninstallOptions, "primary"> & RepoOption): Promise<UninstallResult> {
    const { uninstallHooks } = await import("./claude-code/index.js");
    const { repo, ...rest } = options;
    const primary = rest.scope === "project" ? (await this.context(repo)).repo.primary : "";
    return uninstallHooks({ ...rest, primary });
  }
  /** Starts the work queued to run after an answer (deleting trashed worktrees, refreshing new indexes) in one detached process. */
  flushBackground(): void {
    flushBackground(this.workspace.home);
  }

  /** Finishes background work (a removed tree's purge) and closes the registry; the instance is not used after. */
  async close(): Promise<void> {
    this.flushBackground();
    await this.registry.close();
  }
}
