// A fleet of two simulated hosts on one PostgreSQL registry (SPEC §5): two clones of one origin,
// two workspaces, ORCHARD_HOST host-a / host-b, one registry URL (a schema of its own per test).
// No task is done twice across the fleet: racing exclusive-task admissions admit exactly one; a
// crashed host's lease holds the task until its heartbeat expires; a connection cut inside the
// admission transaction writes nothing; with the server out of reach, status/list/reap-orphans
// go on from this host's git facts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { git, gitResult, Scenario, waitFor, type CliResult } from "../helpers/scenario.js";
import { PG_URL, createSchema, cutLockWaiters, pgAvailable, waitForLockWaiter, type TestSchema } from "../helpers/postgres.js";
import { scaled } from "../helpers/time.js";

let s: Scenario;
let schema: TestSchema;
let b: { primary: string; home: string };

const TASK = "https://github.com/acme/app/issues/42";
const CANONICAL = "github.com/acme/app#42";

describe.skipIf(!pgAvailable())("a fleet of two hosts on one PostgreSQL registry", () => {
  beforeEach(async () => {
    s = Scenario.create();
    schema = await createSchema();
    const root = join(s.root, "host-b");
    mkdirSync(root);
    git(root, "clone", "-q", s.origin, "app");
    b = { primary: join(root, "app"), home: join(root, "home") };
  });
  afterEach(async () => {
    await schema.drop();
    s.cleanup();
  });

  const env = (host: string, url = schema.url): Record<string, string> => ({ ORCHARD_HOST: host, ORCHARD_REGISTRY: url });
  const onA = (args: string[], url?: string): CliResult => s.orchard(args, { env: env("host-a", url) });
  const onB = (args: string[], url?: string): CliResult =>
    s.orchard(["--home", b.home, "--repo", b.primary, ...args], { cwd: b.primary, env: env("host-b", url) });
  const onBAsync = (args: string[]): Promise<CliResult> =>
    s.orchardAsync(["--home", b.home, "--repo", b.primary, ...args], { cwd: b.primary, env: env("host-b") });
  const exclusive = (branch: string, owner: string, extra: string[] = []): string[] => [
    "add",
    branch,
    "--task",
    TASK,
    "--owner",
    owner,
    "--policy",
    "exclusive-task",
    "--no-bootstrap",
    ...extra,
  ];

  it("16 processes on two hosts race for one task: exactly one is admitted, 15 are task_held_elsewhere", async () => {
    const racers = Array.from({ length: 16 }, (_, i) => {
      const args = exclusive(`race-${i}`, `agent-${i}`);
      return i % 2 === 0 ? s.orchardAsync(args, { env: env("host-a") }) : onBAsync(args);
    });
    const results = await Promise.all(racers);
    const admitted = results.filter((r) => r.code === 0);
    expect(admitted, results.map((r) => r.stdout + r.stderr).join("\n")).toHaveLength(1);
    expect(admitted[0]?.json).toMatchObject({ ok: true, action: "created", task: CANONICAL });
    const refused = results.filter((r) => r.code !== 0);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.code, r.stderr).toBe(3);
      expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(["task_held_elsewhere"]);
      expect(r.json.reasons[0]).toMatchObject({ handle: admitted[0]?.json.handle, owner: admitted[0]?.json.owner });
    }
    const rows = await schema.query<{ host: string; lifecycle: string }>("SELECT host, lifecycle FROM worktrees WHERE task = $1", [CANONICAL]);
    expect(rows).toEqual([{ host: expect.stringMatching(/^host-[ab]$/), lifecycle: "active" }]);
    // no refused racer left anything behind in git either
    const branches = [s.primary, b.primary].flatMap((p) => git(p, "branch", "--list", "race-*").split("\n").filter(Boolean));
    expect(branches).toHaveLength(1);
  });

  it("another host's worktree of the task is an other_host candidate, never reused; handles are per host", () => {
    const a = onA(["add", "feat-x", "--task", TASK, "--owner", "agent-a", "--no-bootstrap"]);
    expect(a.code, a.stderr).toBe(0);
    const r = onB(["add", "feat-y", "--task", "acme/app#42", "--owner", "agent-b", "--policy", "reuse-compatible", "--no-bootstrap"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.action).toBe("created"); // the candidate's directory is on host-a: nothing to reuse here
    expect(r.json.candidates).toEqual([
      expect.objectContaining({
        handle: a.json.handle,
        host: "host-a",
        eligible: false,
        reasons: [expect.objectContaining({ code: "other_host", host: "host-a" }), expect.objectContaining({ code: "live_owner", owner: "agent-a" })],
      }),
    ]);
    // the same branch name on both hosts: one handle each, each host sees only its own
    const same = onB(["add", "feat-x", "--no-bootstrap"]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.json.handle).toBe(a.json.handle);
    expect(onA(["list"]).json.worktrees.map((w: { path: string }) => w.path)).toEqual([a.json.path]);
    expect(onB(["status", a.json.handle]).json.worktree.path).toBe(same.json.path);
  });

  it("a host killed mid-add holds the task until its lease's heartbeat expires; then the other host may take it", async () => {
    const ttlMs = scaled(4_000);
    // killed right after its row became active (a row still `creating` is no holder once its creator is gone: creating-phantom.test.ts)
    const killed = s.orchard(exclusive("crashed", "agent-a", ["--ttl", `${Math.ceil(ttlMs / 1000)}s`]), {
      env: { ...env("host-a"), ORCHARD_FAULT_AT: "add.active", TMPDIR: s.root },
    });
    expect(killed.code, killed.stderr).toBe(-1);
    const killedAt = Date.now(); // the lease's heartbeat was written before: it is over by killedAt + ttlMs
    expect(gitResult(s.primary, "worktree", "list", "--porcelain").stdout).toContain("crashed");
    const [row] = await schema.query<{ host: string; owner: string; lifecycle: string }>("SELECT host, owner, lifecycle FROM worktrees WHERE task = $1", [
      CANONICAL,
    ]);
    expect(row).toEqual({ host: "host-a", owner: "agent-a", lifecycle: "active" });
    // host-b cannot see host-a's processes: the heartbeat alone says the lease is live
    const early = onB(exclusive("taker", "agent-b"));
    expect(early.code, early.stderr).toBe(3);
    expect(early.json.reasons[0]).toMatchObject({ code: "task_held_elsewhere", owner: "agent-a", host: "host-a" });
    // once the heartbeat is older than the TTL, the task is free on the other host. The heartbeat is
    // aged rather than waited for (as the tests age a lock file): the comparison with the clock is
    // the same one the TTL's passing would reach, without the machine idling for the TTL
    const aged = new Date(killedAt - ttlMs - 1_000).toISOString();
    const updated = await schema.query("UPDATE worktrees SET heartbeat_at = $1 WHERE task = $2 AND host = 'host-a' RETURNING id", [aged, CANONICAL]);
    expect(updated).toHaveLength(1);
    let taken: CliResult | undefined;
    await waitFor(() => (taken = onB(exclusive("taker", "agent-b"))).code === 0, "host-b to be admitted once host-a's lease expired", ttlMs * 4);
    expect(taken?.json).toMatchObject({ action: "created", task: CANONICAL });
  });

  it("the connection cut inside the admission transaction: exit 1, a clear error, nothing written", async () => {
    expect(onA(["list"]).code).toBe(0); // records the repo
    const [repo] = await schema.query<{ identity: string }>("SELECT identity FROM repos");
    const key = `orchard:task:${repo?.identity}:${CANONICAL}`;
    const holder = new pg.Client({ connectionString: PG_URL, application_name: "orchard-test-holder" });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]); // the add will wait inside its transaction
      const pending = s.orchardAsync(exclusive("cut", "agent-a"), { env: env("host-a") });
      await waitForLockWaiter(key);
      expect(await cutLockWaiters(key)).toBe(1);
      const r = await pending;
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.json.error).toMatchObject({ code: "registry_unreachable" });
      expect(r.json.error.message).toMatch(/unreachable/);
    } finally {
      await holder.end();
    }
    expect(await schema.query("SELECT id FROM worktrees")).toEqual([]);
    expect(await schema.query("SELECT id FROM events")).toEqual([]);
    expect(git(s.primary, "branch", "--list", "cut")).toBe("");
    expect(existsSync(join(s.home, "worktrees", "app@cut"))).toBe(false);
  });

  it("the connection lost after the worktree was made: the error says what stands, and the rerun adopts it (issue 36 item 9)", async () => {
    const pause = mkdtempSync(join(tmpdir(), "orchard-pause-"));
    writeFileSync(join(pause, "hold"), "");
    // a name of its own for this add's connection (the URL's parameters win over the client's): only it is cut
    const url = `${schema.url}${schema.url.includes("?") ? "&" : "?"}application_name=orchard-late-loss`;
    // (with its bootstrap: recording the fingerprints is a registry write after that point)
    const pending = s.orchardAsync(["add", "late", "--owner", "agent-a"], {
      env: { ...env("host-a", url), ORCHARD_PAUSE_AT: "add.active", ORCHARD_PAUSE_DIR: pause },
    });
    await waitFor(() => readdirSync(pause).some((f) => f.startsWith("add.active.")), "the add to stand after its worktree was made");
    const admin = new pg.Client({ connectionString: PG_URL, application_name: "orchard-test-admin" });
    await admin.connect();
    try {
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'orchard-late-loss'");
    } finally {
      await admin.end();
    }
    rmSync(join(pause, "hold"));
    const r = await pending;
    rmSync(pause, { recursive: true, force: true });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.json.error.code).toBe("registry_unreachable");
    expect(r.json.error.message).not.toMatch(/nothing was written/);
    expect(r.json.error.message).toMatch(/was made and stays: run the same orchard add again to adopt it/);
    expect(existsSync(join(s.home, "worktrees", "app@late"))).toBe(true);
    const again = onA(["add", "late", "--owner", "agent-a"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.json.action).toBe("adopted");
  });

  it("the server out of reach: status, list and reap-orphans answer from git's facts and say so; add fails with exit 1", () => {
    const a = onA(["add", "feat-z", "--owner", "agent-a", "--no-bootstrap"]);
    expect(a.code, a.stderr).toBe(0);
    const down = "postgres://orchard:secret@127.0.0.1:1/nowhere";
    const list = onA(["list"], down);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json.registryUnreachable).toMatch(/unreachable/);
    expect(list.json.registryUnreachable).not.toContain("secret");
    expect(list.json.worktrees.map((w: { path: string }) => w.path)).toEqual([a.json.path]);
    expect(list.stderr).toMatch(/this answer comes from this host's git facts alone/);
    const status = onA(["status", a.json.path], down);
    expect(status.code, status.stderr).toBe(0);
    expect(status.json).toMatchObject({ worktree: { path: a.json.path }, registryUnreachable: expect.stringMatching(/unreachable/) });
    const reap = onA(["reap-orphans"], down);
    expect(reap.code, reap.stderr).toBe(0);
    expect(reap.json).toMatchObject({ reaped: 0, dryRun: true, registryUnreachable: expect.stringMatching(/unreachable/) });
    const add = onA(["add", "feat-w", "--no-bootstrap"], down);
    expect(add.code).toBe(1);
    expect(add.json.error.code).toBe("registry_unreachable");
    expect(existsSync(join(s.home, "worktrees", "app@feat-w"))).toBe(false);
  });
});
