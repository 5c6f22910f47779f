// The library (SPEC §7): one object per workspace; each method takes one options object and
// resolves to the same object as the CLI's --json. It never prints and never exits.
import { resolve } from "node:path";
import { Registry } from "../registry/index.js";
import { resolveRepo, type RepoContext } from "./repo.js";
import { defaultHome, openWorkspace, type Ctx, type Workspace } from "./context.js";
import { add, type AddOptions, type AddResult } from "./admission.js";
import { release, heartbeat, type ReleaseOptions, type HeartbeatOptions, type LeaseResult } from "./lifecycle.js";
import { status, listRepo, type StatusResult, type ListResult } from "./inspect.js";
import { AddInput, HeartbeatInput, ListInput, parseInput, ReleaseInput, StatusInput } from "./inputs.js";

export interface OpenOptions {
  /** A path inside the repository (default: the current directory). */
  repo?: string;
  /** The workspace (default: ORCHARD_HOME or ~/.orchard). */
  home?: string;
}

/** Per-call override of the repository, as the MCP tools and `--repo` allow. */
export interface RepoOption {
  repo?: string;
}

export class Orchard {
  private readonly repos = new Map<string, RepoContext>();

  private constructor(
    readonly registry: Registry,
    readonly workspace: Workspace,
    readonly repoPath: string,
  ) {}

  static async open(options: OpenOptions = {}): Promise<Orchard> {
    const workspace = openWorkspace(options.home ?? defaultHome());
    const registry = Registry.open(workspace.home);
    return new Orchard(registry, workspace, resolve(options.repo ?? process.cwd()));
  }

  /** The operation context for a repo path (default: the one given to open). */
  async context(repo?: string): Promise<Ctx> {
    const path = resolve(repo ?? this.repoPath);
    let context = this.repos.get(path);
    if (!context) {
      context = await resolveRepo(this.registry, path);
      this.repos.set(path, context);
    }
    return { registry: this.registry, workspace: this.workspace, repo: context };
  }

  async add(options: AddOptions & RepoOption): Promise<AddResult> {
    const { repo, ...rest } = options;
    return add(await this.context(repo), parseInput(AddInput, rest) as AddOptions);
  }

  async release(options: ReleaseOptions & RepoOption): Promise<LeaseResult> {
    const { repo, ...rest } = options;
    return release(await this.context(repo), parseInput(ReleaseInput, rest) as ReleaseOptions);
  }

  async heartbeat(options: HeartbeatOptions & RepoOption): Promise<LeaseResult> {
    const { repo, ...rest } = options;
    return heartbeat(await this.context(repo), parseInput(HeartbeatInput, rest) as HeartbeatOptions);
  }

  async status(options: { target: string } & RepoOption): Promise<StatusResult> {
    const { repo, ...rest } = options;
    return status(await this.context(repo), parseInput(StatusInput, rest));
  }

  async list(options: { full?: boolean; allRepos?: boolean } & RepoOption = {}): Promise<ListResult> {
    const { repo, ...rest } = options;
    const parsed = parseInput(ListInput, rest);
    const main = await listRepo(await this.context(repo), parsed);
    if (!parsed.allRepos) return { ok: true, ...main };
    const others = [];
    for (const known of this.registry.repos.all()) {
      if (known.identity === main.repo.identity) continue;
      try {
        others.push(await listRepo(await this.context(known.primaryPath), parsed));
      } catch {
        // a repo that moved or was deleted since it was recorded: nothing to list there
      }
    }
    return { ok: true, repo: main.repo, worktrees: [...main.worktrees, ...others.flatMap((o) => o.worktrees)], repos: [main, ...others] };
  }

  close(): void {
    this.registry.close();
  }
}
