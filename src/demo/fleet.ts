// The demo's simulated fleet: what a day of parallel agents leaves behind, built with real git and
// the library. Each agent has a story (what happened to it) and the disposition hygiene should
// give it. Crashed Claude Code sessions are plain git worktrees locked the way Claude Code locks
// them, by a process that has since died; their locks are aged past the reaper's guard.
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addPlainWorktree, commitAll, lockPlainWorktree, mergeNoFf, pushBranch, spawnDeadPid, spawnIdleProcess, type IdleProcess } from "../git/sandbox.js";
import { DEFAULT_BRANCH, type Sandbox } from "./sandbox.js";
import type { Orchard } from "../core/orchard.js";

export type Story =
  | "merged_released"
  | "pushed_released"
  | "crashed_merged"
  | "crashed_dirty"
  | "crashed_unmerged"
  | "duplicate_done"
  | "duplicate_idle"
  | "repeat_done"
  | "repeat_equivalent"
  | "abandoned_dirty"
  | "deleted_directory"
  | "live";

export type ExpectedDisposition = "live" | "reclaimable" | "reapable" | "needs_salvage" | "idle" | "missing";

export interface Agent {
  name: string;
  branch: string;
  path: string;
  task: string | null;
  story: Story;
  expected: ExpectedDisposition;
}

export interface Fleet {
  agents: Agent[];
  /** The one agent still working; stopped at the end of the demo. */
  live: IdleProcess;
}

/** The fleet's day happened hours ago: every lock is older than the reaper's guard (5m). */
const HOURS_AGO = 3;

interface Builder {
  sandbox: Sandbox;
  orchard: Orchard;
  agents: Agent[];
  onAgent: (agent: Agent) => void;
}

function record(b: Builder, agent: Agent): void {
  b.agents.push(agent);
  b.onAgent(agent);
}

async function work(b: Builder, path: string, file: string, content: string, message: string): Promise<void> {
  writeFileSync(join(path, file), content);
  await commitAll(b.sandbox.git(path), message);
}

async function mergeToMain(b: Builder, branch: string): Promise<void> {
  await mergeNoFf(b.sandbox.git(b.sandbox.primary), branch, `Merge ${branch}`);
  await pushBranch(b.sandbox.git(b.sandbox.primary), DEFAULT_BRANCH);
}

/** `orchard add` as an agent calls it; the agent's name is the owner unless it names none. */
async function take(b: Builder, a: { owner: string | null; branch: string; task: string }): Promise<string> {
  const added = await b.orchard.add({ branch: a.branch, task: a.task, ...(a.owner ? { owner: a.owner } : {}) });
  if (!added.ok) throw new Error(`demo: could not add ${a.branch}: ${JSON.stringify("error" in added ? added.error : added.reasons)}`);
  return added.path;
}

async function release(b: Builder, path: string, owner: string, outcome: "done" | "abandoned"): Promise<void> {
  await b.orchard.release({ target: path, owner, outcome });
}

/** A Claude Code agent: a plain worktree in .claude/worktrees, locked by a process that then died. */
async function crashedClaude(b: Builder, a: { id: string; start: boolean; merge: boolean; dirty: boolean }): Promise<Agent> {
  const branch = `worktree-agent-${a.id}`;
  const path = join(b.sandbox.claudeWorktrees, `agent-${a.id}`);
  await addPlainWorktree(b.sandbox.git(b.sandbox.primary), path, branch, DEFAULT_BRANCH);
  const pid = await spawnDeadPid();
  // Claude Code's only lock: `claude agent <slug> (pid N start T)`, T in clock ticks since boot on Linux
  const reason = `claude agent agent-${a.id} (pid ${pid}${a.start ? " start 8812345" : ""})`;
  await lockPlainWorktree(b.sandbox.git(b.sandbox.primary), path, reason);
  await work(b, path, `src/search/agent-${a.id}.ts`, `export const agent = "${a.id}";\n`, `agent ${a.id}: search tweak`);
  if (a.merge) await mergeToMain(b, branch);
  if (a.dirty) writeFileSync(join(path, "NOTES-from-the-session.md"), "half-finished thoughts nobody committed\n");
  const story: Story = a.dirty ? "crashed_dirty" : a.merge ? "crashed_merged" : "crashed_unmerged";
  const expected: ExpectedDisposition = a.dirty || !a.merge ? "needs_salvage" : "reapable";
  return { name: `agent-${a.id}`, branch, path, task: null, story, expected };
}

function ageLocks(sandbox: Sandbox): void {
  const admin = join(sandbox.primary, ".git", "worktrees");
  const then = new Date(Date.now() - HOURS_AGO * 3600_000);
  for (const id of readdirSync(admin)) {
    const lock = join(admin, id, "locked");
    if (existsSync(lock)) utimesSync(lock, then, then);
  }
}

/** Builds the whole fleet; `onAgent` hears about each agent as it is made. */
export async function buildFleet(sandbox: Sandbox, orchard: Orchard, onAgent: (agent: Agent) => void): Promise<Fleet> {
  const b: Builder = { sandbox, orchard, agents: [], onAgent };

  // finished work: merged (or only pushed) and released
  const login = await take(b, { owner: "agent-ada", branch: "feat/login", task: "T-101" });
  await work(b, login, "src/auth/login.ts", "export const login = true;\n", "auth: login form");
  await mergeToMain(b, "feat/login");
  await release(b, login, "agent-ada", "done");
  record(b, { name: "agent-ada", branch: "feat/login", task: "T-101", story: "merged_released", expected: "reclaimable", path: login });

  const docs = await take(b, { owner: "agent-bea", branch: "docs/refresh", task: "T-102" });
  await work(b, docs, "docs/refresh.md", "# Refreshed\n", "docs: refresh");
  await pushBranch(sandbox.git(docs), "docs/refresh");
  await release(b, docs, "agent-bea", "done");
  record(b, { name: "agent-bea", branch: "docs/refresh", task: "T-102", story: "pushed_released", expected: "reclaimable", path: docs });

  // crashed Claude Code sessions: their processes are gone, their locks stayed
  for (const crash of [
    { id: "a1b2c3", start: true, merge: true, dirty: false },
    { id: "d4e5f6", start: true, merge: true, dirty: true },
    { id: "0badc0", start: false, merge: false, dirty: false },
  ] as const)
    record(b, await crashedClaude(b, crash));

  // task T-300 got a second worktree: the first was merged, the retry sits idle with unpushed work
  const search = await take(b, { owner: "agent-cal", branch: "feat/search", task: "T-300" });
  await work(b, search, "src/search/rank.ts", "export const rank = 1;\n", "search: ranking");
  await mergeToMain(b, "feat/search");
  await release(b, search, "agent-cal", "done");
  record(b, { name: "agent-cal", branch: "feat/search", task: "T-300", story: "duplicate_done", expected: "reclaimable", path: search });
  const retry = await take(b, { owner: null, branch: "feat/search-2", task: "T-300" });
  await work(b, retry, "src/search/rank-v2.ts", "export const rank = 2;\n", "search: ranking, second try");
  record(b, { name: "agent-cal (retry)", branch: "feat/search-2", task: "T-300", story: "duplicate_idle", expected: "idle", path: retry });

  // task T-400 was done twice: the second worktree repeats the first one's patch
  const rounding = "export const round = (x: number) => Math.round(x * 100) / 100;\n";
  const billing = await take(b, { owner: "agent-dan", branch: "fix/billing", task: "T-400" });
  await work(b, billing, "src/billing/round.ts", rounding, "billing: round to the cent");
  await pushBranch(sandbox.git(billing), "fix/billing");
  await release(b, billing, "agent-dan", "done");
  const again = await take(b, { owner: "agent-dan", branch: "fix/billing-2", task: "T-400" });
  await work(b, again, "src/billing/round.ts", rounding, "billing: round to the cent");
  await mergeToMain(b, "fix/billing");
  await release(b, again, "agent-dan", "done");
  record(b, { name: "agent-dan", branch: "fix/billing", task: "T-400", story: "repeat_done", expected: "reclaimable", path: billing });
  record(b, { name: "agent-dan (again)", branch: "fix/billing-2", task: "T-400", story: "repeat_equivalent", expected: "reclaimable", path: again });

  // abandoned with uncommitted work
  const spike = await take(b, { owner: "agent-fay", branch: "exp/spike", task: "T-500" });
  await release(b, spike, "agent-fay", "abandoned");
  writeFileSync(join(spike, "src", "jobs", "jobs-0.ts"), "export const jobs0 = 42; // an idea worth keeping\n");
  record(b, { name: "agent-fay", branch: "exp/spike", task: "T-500", story: "abandoned_dirty", expected: "needs_salvage", path: spike });

  // someone deleted a finished worktree's directory by hand
  const deps = await take(b, { owner: "agent-gus", branch: "chore/deps", task: "T-600" });
  await work(b, deps, "deps.txt", "pinned\n", "chore: pin deps");
  await mergeToMain(b, "chore/deps");
  await release(b, deps, "agent-gus", "done");
  rmSync(deps, { recursive: true, force: true });
  record(b, { name: "agent-gus", branch: "chore/deps", task: "T-600", story: "deleted_directory", expected: "missing", path: deps });

  // and one agent still at work, inside its worktree
  const checkout = await take(b, { owner: "agent-eve", branch: "feat/checkout", task: "T-700" });
  const live = await spawnIdleProcess(checkout);
  await orchard.heartbeat({ target: checkout, owner: "agent-eve", pid: live.pid });
  record(b, { name: "agent-eve", branch: "feat/checkout", task: "T-700", story: "live", expected: "live", path: checkout });
  ageLocks(sandbox);
  return { agents: b.agents, live };
}
