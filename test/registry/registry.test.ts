// The registry's behaviour, one suite run against both backends (SPEC §5): SQLite, the embedded
// default, and PostgreSQL, a fleet's shared registry (skipped, with one loud line from the global
// setup, when no server answers; see test/helpers/postgres.ts). Each test gets a fresh registry.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Registry, RegistryError, countsOf, hostsOf } from "../../src/registry/index.js";
import { MIGRATIONS } from "../../src/registry/migrations.js";
import { BACKENDS, HOOKS, HOST, REPO, schemaVersion, worktreeRow, type FreshRegistry } from "../helpers/registry-backends.js";
import { waitForLockWaiter } from "../helpers/postgres.js";
import { RegistryProcess } from "../helpers/registry-process.js";

for (const backend of BACKENDS) {
  describe.skipIf(!backend.available)(`registry on ${backend.name}`, () => {
    let fresh: FreshRegistry;
    let registry: Registry;

    beforeEach(async () => {
      fresh = await backend.fresh();
      registry = await fresh.open();
      await registry.repos.save(REPO);
    });
    afterEach(() => fresh.cleanup());

    const count = async (table: string): Promise<number> => Number((await fresh.raw(`SELECT count(*) AS n FROM ${table}`))[0]?.n);

    it("runs the migrations once; reopening is a no-op that keeps every row", async () => {
      expect(registry.dialect).toBe(backend.name);
      expect(await schemaVersion(backend, fresh)).toEqual([MIGRATIONS.length]);
      const row = await registry.worktrees.insert(worktreeRow("keep"));
      await registry.close();
      // a migration that ran again would re-canonicalise every task with these hooks
      const again = await Registry.open(fresh.target, { canonicalTask: () => "rewritten" });
      try {
        expect(await schemaVersion(backend, fresh)).toEqual([MIGRATIONS.length]);
        expect(await again.worktrees.byId(row.id)).toEqual(row);
        expect(await again.repos.all()).toHaveLength(1);
      } finally {
        await again.close();
      }
    });

    it("lets several processes open a fresh registry at once, migrating it exactly once", async () => {
      const next = await backend.fresh();
      try {
        const children = [1, 2, 3].map(() => new RegistryProcess({ mode: "open", ...next.target, url: next.target.url ?? null }));
        for (const child of children) await child.succeeded();
        expect(await schemaVersion(backend, next)).toEqual([MIGRATIONS.length]);
      } finally {
        await next.cleanup();
      }
    });

    it("stores and loads worktree rows: booleans, nulls, big numbers, ids as numbers", async () => {
      const first = await registry.worktrees.insert(worktreeRow("alpha"));
      expect(first).toMatchObject({ ...worktreeRow("alpha"), ttlMs: 2_592_000_000 });
      expect(typeof first.id).toBe("number");
      expect(first.createdBranch).toBe(true);
      expect(first.outcome).toBeNull();
      expect(await registry.worktrees.byHandle("alpha")).toEqual(first);
      expect(await registry.worktrees.byId(first.id)).toEqual(first);

      const second = await registry.worktrees.insert(worktreeRow("beta", { createdBranch: false, recycledFrom: first.id, ttlMs: null, pid: null }));
      expect(second).toMatchObject({ createdBranch: false, recycledFrom: first.id, ttlMs: null, pid: null });
      expect(second.id).toBeGreaterThan(first.id);
      expect((await registry.worktrees.current()).map((r) => r.handle)).toEqual(["beta", "alpha"]);
      expect((await registry.worktrees.current(REPO.identity)).map((r) => r.id)).toEqual([second.id, first.id]);
      expect(await registry.worktrees.current("elsewhere")).toEqual([]);
      // one worktree's row, as the first of current()'s answers at that path
      expect(await registry.worktrees.atPath(REPO.identity, second.path)).toEqual(second);
      expect(await registry.worktrees.atPath(REPO.identity, "/work/nobody")).toBeUndefined();
      expect(await registry.worktrees.atPath("elsewhere", first.path)).toBeUndefined();

      const done = await registry.worktrees.update(first.id, {
        lifecycle: "terminal",
        outcome: "done",
        createdBranch: false,
        heartbeatAt: null,
        supersededBy: second.id,
      });
      expect(done).toMatchObject({ id: first.id, lifecycle: "terminal", outcome: "done", createdBranch: false, heartbeatAt: null, supersededBy: second.id });
      expect(await registry.worktrees.byId(first.id)).toEqual(done);

      await expect(registry.worktrees.delete(second.id)).rejects.toMatchObject({ code: "registry_failed" }); // still superseding
      await registry.worktrees.update(first.id, { supersededBy: null });
      await registry.worktrees.delete(second.id);
      expect(await registry.worktrees.byId(second.id)).toBeUndefined();
      expect(await registry.worktrees.byHandle("nobody")).toBeUndefined();
    });

    it("holds one live row per handle; a recycled row frees its handle", async () => {
      const live = await registry.worktrees.insert(worktreeRow("solo"));
      const twice = registry.worktrees.insert(worktreeRow("solo"));
      await expect(twice).rejects.toBeInstanceOf(RegistryError);
      await expect(twice).rejects.toMatchObject({ code: "registry_failed" });
      await registry.worktrees.update(live.id, { lifecycle: "recycled" });
      const next = await registry.worktrees.insert(worktreeRow("solo", { recycledFrom: live.id }));
      expect(await registry.worktrees.byHandle("solo")).toEqual(next);
      expect(await count("worktrees")).toBe(2);
    });

    it("keeps events append-only and finds them by handle, task and recycle data", async () => {
      const base = { repo: REPO.identity, owner: "claude" };
      await registry.events.append({ ...base, kind: "created", handle: "old", task: "t-1", data: { branch: "feat/a" } });
      await registry.events.append({ ...base, kind: "recycled", handle: null, task: null, data: { from: { handle: "old" }, to: { handle: "new" } } });
      await registry.events.append({ ...base, kind: "created", handle: "other", task: "t-2", data: {} });
      await registry.events.append({ ...base, repo: "elsewhere", kind: "created", handle: "far", task: "t-3", data: {} });

      await expect(fresh.raw("UPDATE events SET kind = 'removed'")).rejects.toThrow(/append-only/);
      await expect(fresh.raw("DELETE FROM events")).rejects.toThrow(/append-only/);
      expect(await count("events")).toBe(4);

      const old = await registry.events.for({ handle: "old" });
      expect(old.map((e) => e.kind)).toEqual(["created", "recycled"]);
      expect(old[0]).toMatchObject({ handle: "old", task: "t-1", owner: "claude", data: { branch: "feat/a" } });
      expect(typeof old[0]?.id).toBe("number");
      expect((await registry.events.for({ handle: "new" })).map((e) => e.kind)).toEqual(["recycled"]);
      expect((await registry.events.for({ task: "t-2" })).map((e) => e.handle)).toEqual(["other"]);
      expect(await registry.events.for({ handle: "nobody" })).toEqual([]);

      const latest = await registry.events.ofKind(REPO.identity, "created", 1);
      expect(latest.map((e) => e.handle)).toEqual(["other"]);
      expect((await registry.events.ofKind(null, "created")).map((e) => e.handle)).toEqual(["far", "other", "old"]);
      expect(await registry.events.ofKind(REPO.identity, "created", 0)).toEqual([]);
      expect(await registry.events.count(REPO.identity, "created")).toBe(2);
      expect(await registry.events.count(null, "created")).toBe(3);
      expect(await registry.events.count(null, "reaped")).toBe(0);
    });

    it("stores plans and claims their items by compare-and-set", async () => {
      const plan = { id: "p-1", createdAt: "2026-01-01T00:00:00.000Z", scope: "all", digest: "d", options: { merged: true }, skipped: [{ path: "/x" }] };
      const item = { repo: REPO.identity, path: "/work/a", handle: "a", action: "remove", preconditions: { head: "abc" }, reasons: ["merged"] };
      await registry.plans.insert(plan, [
        { ...item, seq: 1, bytes: 5_000_000_000 },
        { ...item, seq: 2, path: "/work/b", handle: null, bytes: null },
      ]);
      expect(await registry.plans.load("p-1")).toEqual({ ...plan, status: "planned" });
      expect(await registry.plans.load("p-2")).toBeUndefined();
      const items = await registry.plans.items("p-1");
      expect(items).toMatchObject([
        { planId: "p-1", seq: 1, bytes: 5_000_000_000, state: "pending", result: null, preconditions: { head: "abc" }, reasons: ["merged"] },
        { planId: "p-1", seq: 2, handle: null, bytes: null, state: "pending" },
      ]);
      // a batch reads its own items again, not the whole plan
      expect(await registry.plans.itemsAt("p-1", [2])).toEqual([items[1]]);
      expect(await registry.plans.itemsAt("p-1", [2, 1, 9])).toEqual(items);
      expect(await registry.plans.itemsAt("p-1", [])).toEqual([]);

      const key = { planId: "p-1", seq: 1 };
      expect(await registry.plans.transition(key, "pending", "applying", null)).toBe(true);
      expect(await registry.plans.transition(key, "pending", "applying", null)).toBe(false);
      await registry.plans.noteResult(key, { salvage: "refs/orchard/salvage/a" });
      expect((await registry.plans.items("p-1"))[0]).toMatchObject({ state: "applying", result: { salvage: "refs/orchard/salvage/a" } });
      expect(await registry.plans.transition(key, "applying", "done", { removed: true })).toBe(true);
      await registry.plans.setStatus("p-1", "completed");
      expect(await registry.plans.load("p-1")).toMatchObject({ status: "completed" });
      expect((await registry.plans.items("p-1")).map((i) => [i.state, i.result])).toEqual([
        ["done", { removed: true }],
        ["pending", null],
      ]);
    });

    it("records trust once per config hash", async () => {
      expect(await registry.trust.has(REPO.identity, "h1")).toBe(false);
      await registry.trust.save(REPO.identity, "h1");
      const first = await fresh.raw("SELECT trusted_at FROM trust");
      await registry.trust.save(REPO.identity, "h1");
      expect(await registry.trust.has(REPO.identity, "h1")).toBe(true);
      expect(await registry.trust.has(REPO.identity, "h2")).toBe(false);
      expect(await fresh.raw("SELECT trusted_at FROM trust")).toEqual(first);
    });

    it("saves repos, keeps their name, and moves an identity with its rows", async () => {
      expect(await registry.repos.load(REPO.identity)).toEqual(REPO);
      await registry.repos.save({ ...REPO, name: "renamed", primaryPath: "/moved/app" });
      expect(await registry.repos.loadByName("app")).toEqual({ ...REPO, primaryPath: "/moved/app" });
      expect(await registry.repos.loadByCommonDir(REPO.commonDir)).toMatchObject({ identity: REPO.identity });
      await registry.repos.save({ ...REPO, identity: "github.com/acme/lib", name: "lib", commonDir: "/src/lib/.git" });
      expect((await registry.repos.all()).map((r) => r.name)).toEqual(["app", "lib"]);

      const row = await registry.worktrees.insert(worktreeRow("mover"));
      await registry.trust.save(REPO.identity, "h1");
      await registry.events.append({ kind: "created", repo: REPO.identity, handle: "mover", task: null, owner: null, data: {} });
      await registry.write(() => registry.repos.moveIdentity(REPO.identity, "gitlab.com/acme/app"));
      expect(await registry.repos.load(REPO.identity)).toBeUndefined();
      expect(await registry.repos.load("gitlab.com/acme/app")).toMatchObject({ name: "app", primaryPath: "/moved/app" });
      expect(await registry.worktrees.byId(row.id)).toMatchObject({ repo: "gitlab.com/acme/app" });
      expect(await registry.trust.has("gitlab.com/acme/app", "h1")).toBe(true);
      expect((await registry.events.for({ handle: "mover" }))[0]?.repo).toBe(REPO.identity);
    });

    it("keeps each host to its own rows, handles, trust and plans while the fleet sees them all", async () => {
      const other = await fresh.open("host-b");
      const mine = await registry.worktrees.insert(worktreeRow("shared", { host: "spoofed" }));
      const theirs = await other.worktrees.insert(worktreeRow("shared", { task: "acme/app#7" })); // a handle is unique per host
      expect([mine.host, theirs.host]).toEqual([HOST, "host-b"]);
      expect(await registry.worktrees.update(mine.id, { host: "host-b", owner: "codex" })).toMatchObject({ host: HOST, owner: "codex" });
      expect(await registry.worktrees.byHandle("shared")).toMatchObject({ id: mine.id });
      expect(await other.worktrees.byHandle("shared")).toMatchObject({ id: theirs.id });
      expect((await registry.worktrees.current()).map((r) => r.id)).toEqual([mine.id]);
      expect((await registry.worktrees.fleet(REPO.identity)).map((r) => r.id)).toEqual([theirs.id, mine.id]);
      expect((await registry.worktrees.fleet(REPO.identity, "acme/app#7")).map((r) => r.id)).toEqual([theirs.id]);

      await other.events.append({ kind: "created", repo: REPO.identity, handle: "shared", task: "acme/app#7", owner: null, data: {} });
      expect(await registry.events.count(REPO.identity, "created")).toBe(0);
      expect(await registry.events.count(REPO.identity, "created", "fleet")).toBe(1);
      expect(await registry.events.ofKind(null, "created", undefined, "fleet")).toMatchObject([{ host: "host-b" }]);
      expect(await registry.events.for({ handle: "shared" })).toMatchObject([{ host: "host-b" }]);

      await registry.trust.save(REPO.identity, "h1");
      expect(await other.trust.has(REPO.identity, "h1")).toBe(false);
      await registry.plans.insert({ id: "p-a", createdAt: "2026-01-01T00:00:00.000Z", scope: "all", digest: "d", options: {}, skipped: [] }, []);
      expect(await registry.plans.load("p-a")).toMatchObject({ id: "p-a" });
      expect(await other.plans.load("p-a")).toBeUndefined();

      // one name per identity fleet-wide; where the primary lives, per host
      expect(await other.repos.load(REPO.identity)).toMatchObject({ name: "app", primaryPath: REPO.primaryPath });
      expect(await other.repos.all()).toEqual([]);
      await other.repos.save({ ...REPO, name: "ignored", primaryPath: "/b/app", commonDir: "/b/app/.git" });
      expect(await other.repos.all()).toMatchObject([{ name: "app", primaryPath: "/b/app" }]);
      expect(await other.repos.loadByCommonDir("/b/app/.git")).toMatchObject({ identity: REPO.identity });
      expect(await registry.repos.loadByCommonDir("/b/app/.git")).toBeUndefined();
      expect(await registry.repos.load(REPO.identity)).toEqual(REPO);
    });

    it("keeps one published summary per host and repo", async () => {
      const other = await fresh.open("host-b");
      await registry.summaries.publish(REPO.identity, { worktrees: 1 });
      await registry.summaries.publish(REPO.identity, { worktrees: 2, bytes: 5_000_000_000 });
      await other.summaries.publish(REPO.identity, { worktrees: 3 });
      expect((await registry.summaries.load(REPO.identity)).map((s) => [s.host, s.summary])).toEqual([
        [HOST, { worktrees: 2, bytes: 5_000_000_000 }],
        ["host-b", { worktrees: 3 }],
      ]);
      expect(await other.summaries.load("elsewhere")).toEqual([]);
    });

    it("counts a kind of event by the host that wrote it", async () => {
      const other = await fresh.open("host-b");
      const event = { kind: "preventable_duplicate" as const, repo: REPO.identity, handle: "h", task: null, owner: null, data: {} };
      await registry.events.append(event);
      await other.events.append(event);
      await other.events.append(event);
      await other.events.append({ ...event, kind: "created" });
      expect(await registry.events.countByHost(REPO.identity, "preventable_duplicate")).toEqual({ [HOST]: 1, "host-b": 2 });
      expect(await registry.events.countByHost("elsewhere", "preventable_duplicate")).toEqual({});
    });

    it("takes in another registry's dump in one write: ids remapped with their links, events in order, counts equal", async () => {
      const home = mkdtempSync(join(tmpdir(), "orchard-source-"));
      const source = await Registry.open({ home, host: "laptop" }, HOOKS);
      try {
        await source.repos.save({ ...REPO, identity: "file:/src/lib", name: "lib" });
        const old = await source.worktrees.insert(worktreeRow("old", { repo: "file:/src/lib", lifecycle: "recycled" }));
        const next = await source.worktrees.insert(worktreeRow("new", { repo: "file:/src/lib", recycledFrom: old.id }));
        await source.worktrees.update(old.id, { supersededBy: next.id });
        for (const kind of ["created", "recycled"] as const)
          await source.events.append({
            kind,
            repo: "file:/src/lib",
            handle: "new",
            task: null,
            owner: null,
            data: { n: kind },
            at: `2026-01-0${kind === "created" ? 1 : 2}T00:00:00.000Z`,
          });
        await source.plans.insert({ id: "p-1", createdAt: "2026-01-01T00:00:00.000Z", scope: "all", digest: "d", options: {}, skipped: [] }, [
          { seq: 1, repo: "file:/src/lib", path: "/p", handle: "old", action: "remove", preconditions: {}, reasons: [], bytes: null },
        ]);
        await source.trust.save("file:/src/lib", "h1");
        await source.summaries.publish("file:/src/lib", { backlog: { count: 1 } });
        await registry.worktrees.insert(worktreeRow("mine")); // this registry's own rows shift every id
        const dump = await source.transfer.dump();
        expect(hostsOf(dump)).toEqual(["laptop"]);
        expect(await registry.transfer.countHostRows(["laptop"], [])).toMatchObject({ worktrees: 0, events: 0 });
        const repos = await registry.write(() => registry.transfer.load(dump, { renameRepo: (name) => `${name}-2` }));
        expect(repos).toEqual([{ identity: "file:/src/lib", action: "inserted", name: "lib" }]);
        expect(await registry.transfer.countHostRows(["laptop"], ["file:/src/lib"])).toEqual(countsOf(dump));
        const laptop = await fresh.open("laptop");
        const moved = await laptop.worktrees.byHandle("new");
        expect(moved?.id).not.toBe(next.id);
        const from = await laptop.worktrees.byId(moved?.recycledFrom as number);
        expect(from).toMatchObject({ handle: "old", supersededBy: moved?.id, host: "laptop" });
        expect((await laptop.events.for({ handle: "new" })).map((e) => [e.kind, e.at, e.host])).toEqual([
          ["created", "2026-01-01T00:00:00.000Z", "laptop"],
          ["recycled", "2026-01-02T00:00:00.000Z", "laptop"],
        ]);
        expect(await laptop.plans.items("p-1")).toMatchObject([{ handle: "old", state: "pending" }]);
        expect(await laptop.trust.has("file:/src/lib", "h1")).toBe(true);
      } finally {
        await source.close();
        rmSync(home, { recursive: true, force: true });
      }
    });

    it("rolls a write back when it throws; a nested write joins the outer one", async () => {
      const boom = new Error("boom");
      const failed = registry.write(async () => {
        await registry.worktrees.insert(worktreeRow("lost"));
        await registry.write(() => registry.events.append({ kind: "created", repo: REPO.identity, handle: "lost", task: null, owner: null, data: {} }));
        throw boom;
      });
      await expect(failed).rejects.toBe(boom);
      expect(await count("worktrees")).toBe(0);
      expect(await count("events")).toBe(0);

      const kept = await registry.write(async () => {
        const inner = await registry.write(() => registry.worktrees.insert(worktreeRow("kept")));
        await registry.events.append({ kind: "created", repo: REPO.identity, handle: "kept", task: null, owner: null, data: {} });
        return inner;
      });
      expect(await registry.worktrees.byHandle("kept")).toEqual(kept);
      expect(await count("events")).toBe(1);
    });

    it("never lets another call of this process into a transaction", async () => {
      let inside!: () => void;
      const entered = new Promise<void>((done) => (inside = done));
      let leave!: () => void;
      const gate = new Promise<void>((done) => (leave = done));
      const failing = registry.write(async () => {
        await registry.worktrees.insert(worktreeRow("rolled-back"));
        inside();
        await gate;
        throw new Error("rolled back");
      });
      await entered;
      // started while the transaction is open: each must run after it, outside it
      const order: string[] = [];
      const outsider = registry.worktrees.insert(worktreeRow("outsider")).then((row) => (order.push("insert"), row));
      const reader = registry.worktrees.current().then((rows) => (order.push("read"), rows));
      const settled = failing.catch(() => order.push("write"));
      leave();
      await settled;
      await expect(failing).rejects.toThrow("rolled back");
      expect((await reader).map((r) => r.handle)).toEqual(["outsider"]);
      expect(await registry.worktrees.byHandle("outsider")).toEqual(await outsider);
      expect(order).toEqual(["write", "insert", "read"]);
      expect(await count("worktrees")).toBe(1);
    });

    it("keeps a call begun inside a finished write out of the next transaction", async () => {
      let later!: () => void;
      let straggler!: Promise<unknown>;
      await registry.write(async () => {
        // a continuation created inside the write that runs only after it has committed
        straggler = new Promise<void>((done) => (later = done)).then(() => registry.worktrees.insert(worktreeRow("straggler")));
        await registry.worktrees.insert(worktreeRow("first"));
      });
      const second = registry.write(async () => {
        await registry.worktrees.insert(worktreeRow("second"));
        later(); // the straggler's call is made now, while this transaction is open
        await registry.worktrees.byHandle("second");
        throw new Error("rolled back");
      });
      await expect(second).rejects.toThrow("rolled back");
      await straggler;
      expect((await registry.worktrees.current()).map((r) => r.handle)).toEqual(["straggler", "first"]);
    });

    it("serialises two processes' (hosts') writes on one lock key: exactly one sees the other's row", async () => {
      const key = `task:${Math.random().toString(36).slice(2)}`;
      const job = { mode: "claim", ...fresh.target, url: fresh.target.url ?? null, lock: key } as const;
      const first = new RegistryProcess({ ...job, host: "host-a", hold: true });
      expect((await first.reached("read")).seen).toBe(0);
      const second = new RegistryProcess({ ...job, host: "host-b" });
      // PostgreSQL: the second really waits for the lock (having opened the registry). SQLite:
      // BEGIN IMMEDIATE holds every key, so the second cannot even open (its migration check
      // writes) until the first commits; whenever it gets in, the first's row is there.
      try {
        if (backend.name === "postgres") await waitForLockWaiter(key);
      } finally {
        first.release();
      }
      await first.succeeded();
      await second.succeeded();
      expect((await second.reached("done")).seen).toBe(1);
      expect(await registry.events.count(null, "created", "fleet")).toBe(1);
    });
  });
}
