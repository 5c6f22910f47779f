// `orchard mcp`: the SDK's own client spawns the real built server over stdio and talks to it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, CLI, git, deadPid } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { connectMcp, REQUEST, type Session } from "../helpers/mcp-session.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let s: Scenario;
let session: Session | undefined;
const connect = (extraEnv: Record<string, string> = {}): Promise<Session> => connectMcp(s, extraEnv);

beforeEach(() => {
  s = Scenario.create();
});
afterEach(async () => {
  await session?.client.close();
  session = undefined;
  s.cleanup();
});

describe("orchard mcp", () => {
  it("initializes and lists every tool with a strict JSON schema that has `repo`", async () => {
    session = await connect();
    expect(session.client.getServerVersion()).toMatchObject({ name: "orchard" });
    const { tools } = await session.client.listTools(undefined, REQUEST);
    const names = tools.map((t) => t.name);
    expect(names.sort()).toEqual(
      [
        "orchard_add",
        "orchard_release",
        "orchard_heartbeat",
        "orchard_bootstrap",
        "orchard_status",
        "orchard_list",
        "orchard_recycle",
        "orchard_hygiene",
        "orchard_hygiene_fleet",
        "orchard_reap_orphans",
        "orchard_cleanup_plan",
        "orchard_cleanup_apply",
        "orchard_cleanup_wave",
        "orchard_cleanup_resume",
        "orchard_cleanup_run",
        "orchard_adopt",
        "orchard_lineage",
        "orchard_salvage_list",
        "orchard_salvage_restore",
        "orchard_salvage_prune",
        "orchard_remove",
        "orchard_path",
        "orchard_merge",
        "orchard_hygiene_html",
        "orchard_explain",
      ].sort(),
    );
    expect(names).not.toContain("orchard_trust"); // an agent must not approve its own repository's commands
    for (const t of tools) {
      expect(t.description).toBeTruthy();
      expect(t.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
      if (t.name !== "orchard_explain") expect(Object.keys(t.inputSchema.properties ?? {})).toContain("repo"); // explain reads no repository
      for (const [field, schema] of Object.entries(t.inputSchema.properties ?? {}))
        expect((schema as { description?: string }).description, `${t.name}.${field}`).toBeTruthy();
    }
    const add = tools.find((t) => t.name === "orchard_add");
    expect(add?.inputSchema.required).toBeUndefined(); // without a branch, the task names it (SPEC v4 §3)
    expect(Object.keys(add?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["branch", "task", "owner", "dryRun", "policy"]));
    const policy = (add?.inputSchema.properties as Record<string, { enum?: string[]; description?: string }>).policy;
    expect(policy?.enum).toEqual(["isolated", "reuse-compatible", "recycle-terminal", "exclusive-task"]);
    for (const p of policy?.enum ?? []) expect(policy?.description).toContain(`${p} =`);
    // every `target` takes a handle, a path or a branch name (SPEC §3.12), and says so
    const targets = tools.filter((t) => "target" in (t.inputSchema.properties ?? {}));
    expect(targets.map((t) => t.name).sort()).toEqual([
      "orchard_bootstrap",
      "orchard_heartbeat",
      "orchard_lineage",
      "orchard_merge",
      "orchard_path",
      "orchard_recycle",
      "orchard_release",
      "orchard_remove",
      "orchard_status",
    ]);
    for (const t of targets) expect((t.inputSchema.properties as Record<string, { description: string }>).target?.description, t.name).toMatch(/branch/);
    const required = (name: string) => tools.find((t) => t.name === name)?.inputSchema.required;
    expect([required("orchard_status"), required("orchard_cleanup_apply"), required("orchard_cleanup_wave")]).toEqual([["target"], ["planId"], ["manifest"]]);
  });

  it("every tool carries annotations true to what it does and an outputSchema (SPEC v3 §3.12)", async () => {
    session = await connect();
    const { tools } = await session.client.listTools(undefined, REQUEST);
    const hints = Object.fromEntries(
      tools.map((t) => {
        const a = t.annotations ?? {};
        expect(a.title, t.name).toBeTruthy();
        expect(t.title, t.name).toBe(a.title);
        expect(a.openWorldHint, t.name).toBe(false);
        for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint"] as const) expect(typeof a[key], `${t.name}.${key}`).toBe("boolean");
        if (a.readOnlyHint) expect(a.destructiveHint, t.name).toBe(false);
        expect(t.outputSchema, t.name).toMatchObject({ type: "object" });
        const shapes = (t.outputSchema as unknown as { anyOf: { properties: Record<string, unknown>; required: string[] }[] }).anyOf;
        expect(
          shapes.map((x) => x.required.includes("ok")),
          t.name,
        ).toEqual([true, true]);
        expect(shapes[1]?.required, t.name).toEqual(["ok", "error"]);
        return [t.name, a.readOnlyHint ? "read" : a.destructiveHint ? "destructive" : "additive"];
      }),
    );
    // what removes or rewrites worktrees and branches is destructive; what only reads is read-only
    for (const name of [
      "orchard_cleanup_run",
      "orchard_cleanup_apply",
      "orchard_cleanup_resume",
      "orchard_reap_orphans",
      "orchard_cleanup_wave",
      "orchard_recycle",
      "orchard_add",
      "orchard_remove",
      "orchard_merge",
      "orchard_salvage_prune",
    ])
      expect(hints[name], name).toBe("destructive");
    for (const name of ["orchard_status", "orchard_list", "orchard_lineage", "orchard_salvage_list", "orchard_path", "orchard_hygiene", "orchard_explain"])
      expect(hints[name], name).toBe("read");
    for (const name of [
      "orchard_release",
      "orchard_heartbeat",
      "orchard_adopt",
      "orchard_cleanup_plan",
      "orchard_salvage_restore",
      "orchard_hygiene_html",
      "orchard_hygiene_fleet",
    ])
      expect(hints[name], name).toBe("additive");
  });

  it("add without a branch, path, merge and remove: the everyday verbs an agent calls (SPEC v4 §3)", async () => {
    session = await connect();
    const add = await session.call("orchard_add", { task: "https://github.com/acme/app/issues/31" });
    expect(add.json).toMatchObject({ ok: true, action: "created", branch: "app-31", task: "github.com/acme/app#31" });
    expect(add.json.notes.map((n: { code: string }) => n.code)).toContain("branch_from_task");
    const path = await session.call("orchard_path", { target: "acme/app#31" });
    expect(path.json).toMatchObject({ ok: true, path: add.json.path, via: "task" });
    writeFileSync(join(add.json.path, "feature.txt"), "feature\n");
    git(add.json.path, "add", "feature.txt");
    git(add.json.path, "commit", "-q", "-m", "feature");
    // the lease is this client's own (SPEC v3 §3.12): live, so remove names who holds it (never how to take it, SPEC v5)
    const held = await session.call("orchard_remove", { target: add.json.handle });
    expect(held.json).toMatchObject({ ok: false, action: "refused", disposition: "live", next: `orchard_status {"target":"${add.json.handle}"}` });
    expect((await session.call("orchard_release", { target: add.json.handle })).json.ok).toBe(true);
    const refused = await session.call("orchard_remove", { target: add.json.handle });
    expect(refused.json).toMatchObject({ ok: false, action: "refused", next: `orchard_remove {"target":"${add.json.handle}","salvage":true}` });
    expect(refused.json.reasons.map((r: { next: string | null }) => r.next).filter(Boolean)).not.toContainEqual(expect.stringMatching(/^orchard /));
    const merged = await session.call("orchard_merge", { target: add.json.handle, strategy: "squash" });
    expect(merged.json).toMatchObject({ ok: true, action: "merged", branch: "app-31", strategy: "squash" });
    expect(merged.json).not.toHaveProperty("plan");
    expect(readFileSync(join(s.primary, "feature.txt"), "utf8")).toBe("feature\n");
    const other = await session.call("orchard_add", { branch: "feat/done" });
    await session.call("orchard_release", { target: other.json.handle });
    const removed = await session.call("orchard_remove", { target: other.json.handle });
    expect(removed.json).toMatchObject({ ok: true, action: "removed", steps: ["remove", "delete_branch"] });
    const gone = await session.call("orchard_remove", { target: other.json.handle });
    expect(gone.json.error.code).toBe("not_a_worktree");
  });

  it("add, list, status and release answer with the same JSON as the CLI", async () => {
    session = await connect();
    const add = await session.call("orchard_add", { branch: "feat/mcp", task: "T-1", owner: "agent-1" });
    expect(add.isError).toBe(false);
    expect(add.json).toMatchObject({ ok: true, action: "created", branch: "feat/mcp", task: "t-1", owner: "agent-1" });
    expect(git(s.primary, "worktree", "list", "--porcelain")).toContain(`worktree ${add.json.path}`);

    const list = await session.call("orchard_list", { full: true });
    expect(list.json.ok).toBe(true);
    expect(list.json.worktrees.map((w: { handle: string }) => w.handle)).toEqual([add.json.handle]);
    expect(list.json).toEqual(s.orchard(["list", "--full"]).json);
    expect(list.json.worktrees[0].harness).toBeNull(); // an add of Orchard's: no harness's shape (SPEC v5 §1)

    const status = await session.call("orchard_status", { target: add.json.handle });
    expect(status.json).toEqual(s.orchard(["status", add.json.handle]).json);
    const byBranch = await session.call("orchard_status", { target: "feat/mcp" });
    expect(byBranch.json.worktree.path).toBe(add.json.path);

    const release = await session.call("orchard_release", { target: add.json.path, owner: "agent-1" });
    expect(release.json).toMatchObject({ ok: true, lifecycle: "terminal" });
  });

  it("adopt, lineage, cleanup run and the salvage tools answer like the CLI", async () => {
    session = await connect();
    const foreign = s.worktree("worktree-agent-y");
    const adopted = await session.call("orchard_adopt", { path: foreign, task: "T-9", owner: "agent-y" });
    expect(adopted.json).toMatchObject({ ok: true, action: "adopted", task: "t-9" });
    const lineage = await session.call("orchard_lineage", { target: "T-9" });
    expect(lineage.json.events.map((e: { kind: string }) => e.kind)).toContain("adopted");
    await session.call("orchard_release", { target: "worktree-agent-y", owner: "agent-y" });
    const run = await session.call("orchard_cleanup_run");
    expect(run.json).toMatchObject({ ok: true, status: "completed" });
    const salvages = await session.call("orchard_salvage_list");
    expect(salvages.json).toEqual(s.orchard(["salvage", "list"]).json);
    const restore = await session.call("orchard_salvage_restore", { ref: "refs/orchard/salvage/none/20260101T000000Z" });
    expect(restore.isError).toBe(true);
    expect(restore.json.ok).toBe(false);
  });

  it("`target` takes a branch name in every tool that has one, lineage too", async () => {
    session = await connect();
    const add = await session.call("orchard_add", { branch: "feat/t", task: "T-3", owner: "a1" });
    expect(add.json).toMatchObject({ ok: true, action: "created" });
    expect((await session.call("orchard_heartbeat", { target: "feat/t", owner: "a1" })).json).toMatchObject({ ok: true, handle: add.json.handle });
    expect((await session.call("orchard_status", { target: "feat/t" })).json.worktree.handle).toBe(add.json.handle);
    const byHandle = (await session.call("orchard_lineage", { target: add.json.handle })).json;
    expect(byHandle.events.map((e: { kind: string }) => e.kind)).toEqual(["created"]);
    expect((await session.call("orchard_lineage", { target: "feat/t" })).json).toEqual(byHandle);
    expect((await session.call("orchard_lineage", { target: add.json.path })).json).toEqual(byHandle);
    expect((await session.call("orchard_release", { target: "feat/t", owner: "a1" })).json).toMatchObject({ ok: true, lifecycle: "terminal" });
    const recycled = await session.call("orchard_recycle", { target: "feat/t", branch: "feat/u", owner: "a2" });
    expect(recycled.json).toMatchObject({ ok: true, action: "recycled", branch: "feat/u", lineage: { from: { handle: add.json.handle } } });
    // the new branch names the recycled worktree, whose lineage runs back through the recycle
    const chain = (await session.call("orchard_lineage", { target: "feat/u" })).json.events.map((e: { kind: string; handle: string }) => [e.kind, e.handle]);
    expect(chain).toEqual(
      expect.arrayContaining([
        ["created", add.json.handle],
        ["released", add.json.handle],
        ["recycled", recycled.json.handle],
      ]),
    );
    expect(chain).toEqual((await s.orchard(["lineage", "feat/u"]).json.events).map((e: { kind: string; handle: string }) => [e.kind, e.handle]));
  });

  it("cleanup resume finishes a plan that stopped early; the work it salvaged is listed and restored", async () => {
    session = await connect();
    for (const branch of ["done-1", "done-2"]) {
      const w = await session.call("orchard_add", { branch, owner: "a1" });
      await session.call("orchard_release", { target: w.json.handle, owner: "a1" });
    }
    const wip = (await session.call("orchard_add", { branch: "wip-1", owner: "a1" })).json;
    writeFileSync(join(wip.path, "notes.txt"), "unfinished\n");
    await session.call("orchard_release", { target: "wip-1", owner: "a1" });
    const plan = (await session.call("orchard_cleanup_plan", { include: ["reclaimable", "needs_salvage"], salvage: true })).json;
    expect(plan.items.map((i: { action: string }) => i.action)).toContain("salvage_remove");
    const first = await session.call("orchard_cleanup_apply", { planId: plan.planId, limit: 1 });
    expect(first.json).toMatchObject({ ok: true, status: "needs_resume", done: 1 });
    const resumed = await session.call("orchard_cleanup_resume", { planId: plan.planId });
    expect(resumed.isError).toBe(false);
    expect(resumed.json).toMatchObject({ ok: true, status: "completed", remaining: 0, failed: 0 });
    expect(git(s.primary, "worktree", "list").split("\n")).toHaveLength(1);

    const salvages = await session.call("orchard_salvage_list");
    expect(salvages.json).toEqual(s.orchard(["salvage", "list"]).json);
    expect(salvages.json.salvages).toEqual([expect.objectContaining({ handle: wip.handle, branch: "wip-1", path: wip.path })]);
    const restored = await session.call("orchard_salvage_restore", { ref: salvages.json.salvages[0].ref, branch: "wip-1-rescued" });
    expect(restored.json).toMatchObject({ ok: true, action: "created", branch: "wip-1-rescued", restoredFrom: { ref: salvages.json.salvages[0].ref } });
    expect(readFileSync(join(restored.json.path, "notes.txt"), "utf8")).toBe("unfinished\n");
  });

  it("`repo` names another repository for one call", async () => {
    const other = Scenario.create();
    try {
      session = await connect();
      const r = await session.call("orchard_add", { branch: "elsewhere", repo: other.primary });
      expect(r.json.ok).toBe(true);
      expect(git(other.primary, "worktree", "list")).toContain("elsewhere");
      expect(git(s.primary, "worktree", "list").split("\n")).toHaveLength(1);
    } finally {
      other.cleanup();
    }
  });

  it("hygiene, reap-orphans and cleanup plan/apply work through their tools", async () => {
    session = await connect();
    const crashed = s.worktree("worktree-agent-x1", { lock: `claude agent agent-x1 (pid ${deadPid()})` });
    s.commit({ in: crashed, message: "agent work" });
    s.mergeIntoMain("worktree-agent-x1");
    s.ageLock(crashed, 3600);
    const done = await session.call("orchard_add", { branch: "feat-done", owner: "a1" });
    await session.call("orchard_release", { target: done.json.handle, owner: "a1" });

    const hygiene = await session.call("orchard_hygiene");
    const disposition = (path: string) => hygiene.json.worktrees.find((w: { path: string }) => w.path === path)?.disposition;
    expect(hygiene.json.ok).toBe(true);
    expect(disposition(crashed)).toBe("reapable");
    expect(disposition(done.json.path)).toBe("reclaimable");

    const dry = await session.call("orchard_reap_orphans", { dryRun: true });
    expect(dry.json.entries).toEqual([expect.objectContaining({ path: crashed, status: "planned" })]);
    const reap = await session.call("orchard_reap_orphans", { guard: "1m" });
    expect(reap.json).toMatchObject({ ok: true, reaped: 1, entries: [{ path: crashed, status: "reaped", reason: "pid_dead_and_merged" }] });

    const plan = await session.call("orchard_cleanup_plan");
    expect(plan.json.items.map((i: { path: string; action: string }) => [i.path, i.action])).toContainEqual([done.json.path, "remove"]);
    const apply = await session.call("orchard_cleanup_apply", { planId: plan.json.planId });
    expect(apply.json).toMatchObject({ ok: true, status: "completed", failed: 0 });
    expect(git(s.primary, "worktree", "list").split("\n")).toHaveLength(1);
  });

  it("sends instructions; each reason's next is the tool call that moves it on; explain and the HTML page have their own tools", async () => {
    session = await connect();
    expect(session.client.getInstructions()).toMatch(/next/);
    const wip = await session.call("orchard_add", { branch: "wip", owner: "a1" });
    s.makeDirty(wip.json.path);
    await session.call("orchard_release", { target: wip.json.handle, owner: "a1" });
    const hygiene = await session.call("orchard_hygiene");
    expect(hygiene.json.html).toBeUndefined();
    const row = hygiene.json.worktrees.find((w: { path: string }) => w.path === wip.json.path);
    expect(row.disposition).toBe("needs_salvage");
    const next = row.reasons[0].next as string;
    expect(next).toBe('orchard_cleanup_run {"include":"needs_salvage","salvage":true}');
    // the call it names, made as it is written, takes the worktree
    const [name, args] = [next.slice(0, next.indexOf(" ")), JSON.parse(next.slice(next.indexOf(" ") + 1))];
    const run = await session.call(name, args);
    expect(run.json.items.map((i: { path: string; state: string }) => [i.path, i.state])).toContainEqual([wip.json.path, "done"]);
    expect((await session.call("orchard_hygiene", { html: join(s.root, "r.html") })).json.error.code).toBe("invalid_argument");
    const page = join(s.root, "report.html");
    const written = await session.call("orchard_hygiene_html", { html: page });
    expect(written.json).toMatchObject({ ok: true, html: page });
    expect(readFileSync(page, "utf8")).toContain("<html");
    expect((await session.call("orchard_explain", { code: "needs_salvage" })).json).toMatchObject({ ok: true, kind: "disposition" });
    expect((await session.call("orchard_explain")).json.codes.length).toBeGreaterThan(100);
    expect((await session.call("orchard_explain", { code: "dirt" })).json.error.message).toMatch(/did you mean dirty/);
  });

  it("one server sees what changed in the repository between its calls (config, origin)", async () => {
    session = await connect();
    const before = (await session.call("orchard_list")).json;
    expect(before.repo.defaultBranch).toBe("main");
    git(s.primary, "branch", "trunk", "main");
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ defaultBranch: "trunk" }));
    expect((await session.call("orchard_list")).json.repo.defaultBranch).toBe("trunk");
    git(s.primary, "remote", "set-url", "origin", "https://example.invalid/Team/Moved.git");
    const moved = (await session.call("orchard_list")).json;
    expect(moved.repo.identity).not.toBe(before.repo.identity);
    expect(moved.repo.identity).toBe("example.invalid/Team/Moved");
  });

  it("bad input is a tool error with the code, and the server keeps serving", async () => {
    session = await connect();
    const bad = await session.call("orchard_add", { branch: "-x" });
    expect(bad).toMatchObject({ isError: true, json: { ok: false, error: { code: "invalid_branch" } } });
    const unknownKey = await session.call("orchard_add", { branch: "ok", colour: "red" });
    expect(unknownKey).toMatchObject({ isError: true, json: { ok: false, error: { code: "invalid_argument" } } });
    expect(unknownKey.json.error.message).toMatch(/colour/);
    const wrongType = await session.call("orchard_list", { full: "yes" });
    expect(wrongType.json.error.code).toBe("invalid_argument");
    const notRepo = await session.call("orchard_list", { repo: s.home });
    expect(notRepo).toMatchObject({ isError: true, json: { error: { code: "not_a_repository" } } });
    const noPlan = await session.call("orchard_cleanup_apply", { planId: "no-such-plan" });
    expect(noPlan.isError).toBe(true);
    expect(noPlan.json.ok).toBe(false);
    const badManifest = await session.call("orchard_cleanup_wave", { manifest: join(s.root, "no-such-manifest.json") });
    expect(badManifest.json.ok).toBe(false);
    const noTool = await session.call("orchard_nope");
    expect(noTool).toMatchObject({ isError: true, json: { ok: false, error: { code: "unknown_tool" } } });
    expect(git(s.primary, "branch", "--list")).toBe("* main");
    expect((await session.call("orchard_list")).json.ok).toBe(true);
  });

  it("a refusal is a result (ok:false with reasons), not a tool error", async () => {
    session = await connect();
    const first = await session.call("orchard_add", { branch: "feat-a", owner: "a1", task: "T-1" });
    const refused = await session.call("orchard_add", { branch: "feat-a", owner: "a2", task: "T-2" });
    expect(first.json.ok).toBe(true);
    expect(refused.isError).toBe(false);
    expect(refused.json).toMatchObject({ ok: false, action: "refused" });
    expect(refused.json.reasons.map((r: { code: string }) => r.code)).toEqual(expect.arrayContaining(["live_owner", "task_mismatch"]));
  });

  it("nothing but the protocol reaches stdout, even with git tracing on", async () => {
    session = await connect({ ORCHARD_TRACE: "1" });
    await session.call("orchard_add", { branch: "traced" });
    await session.call("orchard_list", { full: true });
    expect(session.errors).toEqual([]);
    expect(session.stderr()).toContain("[orchard trace] git");
  });

  it("answers a call that arrives just before the client hangs up, then exits 0", () => {
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "orchard_add", arguments: { branch: "last-words" } } },
    ];
    const r = spawnSync(process.execPath, [CLI, "--home", s.home, "mcp"], {
      cwd: s.primary,
      env: hermeticEnv(),
      input: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
      encoding: "utf8",
      timeout: PROCESS_TIMEOUT_MS,
    });
    expect(r.status).toBe(0);
    const answers = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(JSON.parse(answers[1].result.content[0].text)).toMatchObject({ ok: true, action: "created", branch: "last-words" });
  });
});
