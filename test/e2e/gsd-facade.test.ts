// The gsd drop-in's own edges (issue 46 items 14 and 15), run as GSD's callers run it: a Node
// process that requires the built adapter. A non-cloneable argument is `ok: false` with a reason,
// never a thrown DataCloneError; a wave runs as long as git takes, whatever ORCHARD_GSD_TIMEOUT_MS
// says, and answers what it did; the trash a wave filled is purged in the background after the
// answer, as after an `orchard` command; an Orchard that cannot open its registry (no SQLite
// driver) fails loudly, never "ok: true, reaped: 0". GSD's read-only calls answer on the caller's
// thread, as GSD's own module does (issue 48 item 4): no worker, no library, no registry, unless
// an assessment is asked or the repository needs the worker's vetting (a config include).
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hermeticEnv } from "../helpers/env.js";
import { Scenario, git, waitFor } from "../helpers/scenario.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";
import { ADAPTER, agentWorktree, gsd } from "../helpers/gsd.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** Runs `body` (with `m`, the adapter, configured for the scenario's home) in a fresh Node; its stdout parsed. */
function facade(body: string, env: Record<string, string> = {}): { status: number | null; stderr: string; json: any } {
  // every worker thread the adapter starts is counted (`workers()`), and every git it runs on this thread (`gits()`): patched before the adapter loads
  const count =
    `const wt = require("node:worker_threads"); let started = 0; const W = wt.Worker; wt.Worker = class extends W { constructor(...a) { started++; super(...a); } }; const workers = () => started;` +
    `const cp = require("node:child_process"); let spawned = 0; const S = cp.spawnSync; cp.spawnSync = (...a) => { if (a[0] === "git") spawned++; return S(...a); }; const gits = () => spawned;`;
  const script = `${count} const m = require(${JSON.stringify(ADAPTER)}); m.configure({ home: ${JSON.stringify(s.home)} }); const out = (v) => process.stdout.write(JSON.stringify(v)); ${body}`;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: s.primary, env: hermeticEnv(env), encoding: "utf8", timeout: PROCESS_TIMEOUT_MS });
  let json: any = null;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = { unparsed: r.stdout };
  }
  return { status: r.status, stderr: r.stderr, json };
}

describe("orchard-worktrees/gsd", () => {
  it("a non-cloneable argument is ok: false with a reason, not a DataCloneError", () => {
    const r = facade(
      `out([m.snapshotWorktreeInventory(process.cwd(), { staleAfterMs: () => 1 }), m.executeWorktreeWaveCleanupPlan({ action: "cleanup_wave", repoRoot: process.cwd(), entries: [{ branch: "b", onDone: () => 1 }] })]);`,
    );
    expect(r.status, r.stderr).toBe(0);
    const [inventory, wave] = r.json;
    expect(inventory).toMatchObject({ ok: false, entries: [], error: { code: "invalid_argument", message: expect.stringContaining("not plain data") } });
    expect(wave).toMatchObject({ ok: false, entries: [], error: { code: "invalid_argument" } });
  });

  it("a wave longer than ORCHARD_GSD_TIMEOUT_MS answers what it merged, and its removed trees are purged after the answer", async () => {
    const base = git(s.primary, "rev-parse", "main");
    const manifest = ["a", "b"].map((name) => {
      const branch = `worktree-agent-${name}`;
      return { agent_id: name, worktree_path: agentWorktree(s, branch, "none"), branch, expected_base: base };
    });
    // 1 ms: any wave outlasts it; before, the caller got `entries: []`, every entry pending, while the merges went on
    const r = facade(`out(m.executeWorktreeWaveCleanupPlan(m.planWorktreeWaveCleanup(process.cwd(), ${JSON.stringify(manifest)})));`, {
      ORCHARD_GSD_TIMEOUT_MS: "1",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, pending: [] });
    expect(r.json.entries.map((e: { branch: string; status: string }) => `${e.branch}:${e.status}`)).toEqual([
      "worktree-agent-a:merged_removed",
      "worktree-agent-b:merged_removed",
    ]);
    for (const m of manifest) expect(existsSync(m.worktree_path)).toBe(false);
    const trash = join(s.home, "trash");
    await waitFor(() => !existsSync(trash) || readdirSync(trash).length === 0, "the background purge of the wave's trash");
  });

  it("without a SQLite driver the reaper fails loudly: ok false with the driver's message, and reapOrphanWorktrees throws", () => {
    // a driver this Node cannot use stands in for Node 20 without better-sqlite3: the registry cannot open
    const env = { ORCHARD_SQLITE_DRIVER: "none-here" };
    const cmd = facade(`m.cmdWorktreeReapOrphans(process.cwd());`, env);
    expect(cmd.json).toMatchObject({ ok: false, reaped: 0, error: { code: "registry_failed", message: expect.stringContaining("ORCHARD_SQLITE_DRIVER") } });
    expect(cmd.stderr).toContain("worktree.reap-orphans failed");
    const direct = facade(
      `try { m.reapOrphanWorktrees(process.cwd()); out({ threw: false }); } catch (e) { out({ threw: true, name: e.name, code: e.code }); }`,
      env,
    );
    expect(direct.json).toEqual({ threw: true, name: "OrchardUnavailable", code: "registry_failed" });
  });

  it("the read-only calls answer on the caller's thread: no worker started, no registry opened, GSD's answers", () => {
    const linked = agentWorktree(s, "worktree-agent-a", "none");
    rmSync(s.worktree("gone"), { recursive: true, force: true });
    const env = { ORCHARD_SQLITE_DRIVER: "none-here" }; // a registry opened would fail the call
    const r = facade(
      `out({ answers: [m.resolveWorktreeContext(${JSON.stringify(linked)}), m.listLinkedWorktreePaths(process.cwd()),
        m.snapshotWorktreeInventory(process.cwd()), m.inspectWorktreeHealth(process.cwd(), { staleAfterMs: 0 })], workers: workers(),
        assessed: m.snapshotWorktreeInventory(process.cwd(), { assess: true }).error?.code, after: workers() });`,
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    const [context, paths, inventory, health] = r.json.answers;
    expect(context).toEqual({ ...gsd.resolveWorktreeContext!(linked), primary: s.primary });
    expect(paths).toEqual(gsd.listLinkedWorktreePaths!(s.primary));
    expect(inventory).toEqual(gsd.snapshotWorktreeInventory!(s.primary));
    expect(health).toEqual(gsd.inspectWorktreeHealth!(s.primary, { staleAfterMs: 0 }));
    expect(r.json.workers).toBe(0);
    // an assessment is hygiene's: the worker and the registry (which cannot open here)
    expect([r.json.assessed, r.json.after]).toEqual(["registry_failed", 1]);
  });

  it("a repository whose config includes a file is answered by the worker, which vets the include first: the same answer", () => {
    agentWorktree(s, "worktree-agent-a", "none");
    writeFileSync(join(s.root, "extra.cfg"), "[user]\n\tname = someone\n");
    appendFileSync(join(s.primary, ".git", "config"), `[include]\n\tpath = ${join(s.root, "extra.cfg")}\n`);
    const r = facade(`out({ paths: m.listLinkedWorktreePaths(process.cwd()), workers: workers() });`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json).toEqual({ paths: gsd.listLinkedWorktreePaths!(s.primary), workers: 1 });
  });

  it("a FIFO planted in an admin dir between two calls of one process: neither call asks git, the paths are read from the `gitdir` records", () => {
    const linked = agentWorktree(s, "worktree-agent-a", "none");
    const admin = join(s.primary, ".git", "worktrees", "worktree-agent-a");
    const plant = `require("node:child_process").execFileSync("mkfifo", [${JSON.stringify(join(admin, "locked"))}]);`;
    const r = facade(`const first = m.listLinkedWorktreePaths(process.cwd()); const before = [workers(), gits()]; ${plant}
      out({ first, before, second: m.listLinkedWorktreePaths(process.cwd()), health: m.inspectWorktreeHealth(process.cwd()), after: [workers(), gits()] });`);
    expect(r.status, r.stderr).toBe(0);
    const paths = { ok: true, reason: "ok", paths: [linked] };
    expect(r.json).toEqual({ first: paths, before: [0, 0], second: paths, health: { ok: true, reason: "ok", findings: [] }, after: [0, 0] });
  });

  it("a `gitdir` record that is a FIFO is never read: no `git worktree list` either, the worker lists by hand and serves the other worktree", () => {
    agentWorktree(s, "worktree-agent-a", "none");
    const other = agentWorktree(s, "worktree-agent-b", "none");
    const record = join(s.primary, ".git", "worktrees", "worktree-agent-a", "gitdir");
    rmSync(record);
    spawnSync("mkfifo", [record]);
    const r = facade(`out({ paths: m.listLinkedWorktreePaths(process.cwd()), workers: workers(), gits: gits() });`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json).toEqual({ paths: { ok: true, reason: "ok", paths: [other] }, workers: 1, gits: 0 });
  });

  it("the records give git's order (by path, not by admin dir) with no git; an order core.ignorecase would change is git's to give", () => {
    const at = (name: string) => s.worktree(`w-${name}`, { path: join(s.root, "order", name) });
    for (const name of ["zz", "aa", "bb/zz", "b-b"]) at(name);
    const listed = () =>
      facade(`out({ paths: m.listLinkedWorktreePaths(process.cwd()), inventory: m.snapshotWorktreeInventory(process.cwd()), gits: gits() });`);
    const plain = listed();
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.json).toEqual({ paths: gsd.listLinkedWorktreePaths!(s.primary), inventory: gsd.snapshotWorktreeInventory!(s.primary), gits: 0 });
    at("Mm"); // before "aa" by bytes, after it ignoring case: git's order depends on core.ignorecase
    for (const ignoreCase of ["false", "true"]) {
      git(s.primary, "config", "core.ignorecase", ignoreCase);
      const r = listed();
      expect(r.status, r.stderr).toBe(0);
      expect(r.json).toEqual({ paths: gsd.listLinkedWorktreePaths!(s.primary), inventory: gsd.snapshotWorktreeInventory!(s.primary), gits: 2 });
    }
  });
});
