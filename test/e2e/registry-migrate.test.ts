// `orchard registry migrate --from <sqlite> --to <postgres url>` (SPEC §5) against a real PostgreSQL
// (a schema of its own per test): a workspace with worktrees, a recycle, events, a stored plan,
// trust and a published summary moves without loss (counts equal, lineage and hygiene through the
// PostgreSQL registry equal the SQLite ones, ids remapped with their links); the source file is
// never changed; bad input exits 2 and writes nothing; a second migration is refused; a kill
// before the commit leaves nothing.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario } from "../helpers/scenario.js";
import { V1 } from "../../src/registry/schema.js";
import { createSchema, pgAvailable, type TestSchema } from "../helpers/postgres.js";

const HOST = { ORCHARD_HOST: "host-a" };
const TABLES = {
  repos: "repos",
  primaries: "primaries",
  worktrees: "worktrees",
  events: "events",
  plans: "plans",
  planItems: "plan_items",
  trust: "trust",
  hostSummaries: "host_summaries",
};

let s: Scenario;
let pg: TestSchema;

const onSqlite = (args: string[]) => s.orchard(args, { env: HOST });
const onPg = (args: string[]) => s.orchard(args, { env: { ...HOST, ORCHARD_REGISTRY: pg.url } });
const registryFile = () => join(s.home, "orchard.db");
/** The registry file and its write-ahead log, as bytes. */
const digest = (path: string) => {
  const hash = createHash("sha256").update(readFileSync(path));
  if (existsSync(`${path}-wal`)) hash.update(readFileSync(`${path}-wal`));
  return hash.digest("hex");
};

function sqliteCounts(): Record<string, number> {
  const db = new Database(registryFile(), { readonly: true });
  try {
    return Object.fromEntries(Object.entries(TABLES).map(([key, table]) => [key, (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n]));
  } finally {
    db.close();
  }
}

async function pgCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [key, table] of Object.entries(TABLES)) out[key] = Number((await pg.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]?.n);
  return out;
}

async function pgTables(): Promise<string[]> {
  return (await pg.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1", [pg.name])).map((r) => r.t);
}

/** A workspace that has seen a bit of everything: duplicates, a recycle, a release, a stored plan, trust, a published summary. */
function busyWorkspace(): { planId: string } {
  writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { copy: [] } }));
  expect(onSqlite(["trust", "--yes"]).code).toBe(0);
  const a = onSqlite(["add", "feat-a", "--task", "T-1", "--owner", "alice"]).json;
  onSqlite(["add", "feat-b", "--task", "T-1"]);
  onSqlite(["add", "feat-e", "--task", "T-1"]); // feat-b was reusable: a preventable duplicate
  expect(onSqlite(["release", a.handle, "--owner", "alice"]).code).toBe(0);
  expect(onSqlite(["recycle", a.handle, "--branch", "feat-c", "--task", "T-2"]).code).toBe(0);
  const d = onSqlite(["add", "feat-d", "--task", "T-3"]).json;
  onSqlite(["release", d.handle]);
  const plan = onSqlite(["cleanup", "plan"]).json;
  expect(plan.items.length).toBeGreaterThan(0);
  expect(onSqlite(["hygiene"]).code).toBe(0); // publishes host-a's summary
  return { planId: plan.planId };
}

const view = (report: any) => ({
  worktrees: report.worktrees.map((w: any) => ({ handle: w.handle, disposition: w.disposition, task: w.task, owner: w.owner, lifecycle: w.lifecycle })),
  duplicateTaskGroups: report.duplicateTaskGroups,
  preventable: report.preventableDuplicates.count,
  backlog: report.cleanupBacklog,
});

describe.skipIf(!pgAvailable())("orchard registry migrate", () => {
  beforeEach(async () => {
    s = Scenario.create();
    pg = await createSchema();
  });
  afterEach(async () => {
    s.cleanup();
    await pg.drop();
  });

  it("moves every row into PostgreSQL: counts equal, ids remapped, lineage and hygiene the same, the source unchanged", async () => {
    const { planId } = busyWorkspace();
    const lineage = { t1: onSqlite(["lineage", "T-1"]).json, recycled: onSqlite(["lineage", "app@feat-c"]).json };
    const hygiene = view(onSqlite(["hygiene"]).json);
    const before = { counts: sqliteCounts(), digest: digest(registryFile()) };

    const r = onSqlite(["registry", "migrate", "--from", registryFile(), "--to", pg.url]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, from: registryFile(), hosts: ["host-a"], sourceVersion: 4, repos: [{ action: "inserted", name: "app" }] });
    expect(r.json.counts).toEqual(before.counts);
    expect(await pgCounts()).toEqual(before.counts);
    expect(Object.values(before.counts).every((n) => n > 0)).toBe(true); // every table had something to move
    expect(digest(registryFile())).toBe(before.digest);

    // the recycle's links point at the new ids, both ways
    const rows = await pg.query<{ id: string; handle: string; recycled_from: string | null; superseded_by: string | null }>(
      "SELECT id, handle, recycled_from, superseded_by FROM worktrees WHERE handle IN ('app@feat-a', 'app@feat-c')",
    );
    const old = rows.find((x) => x.handle === "app@feat-a");
    const fresh = rows.find((x) => x.handle === "app@feat-c");
    expect(fresh?.recycled_from).toBe(old?.id);
    expect(old?.superseded_by).toBe(fresh?.id);

    expect(onPg(["lineage", "T-1"]).json).toEqual(lineage.t1);
    expect(onPg(["lineage", "app@feat-c"]).json).toEqual(lineage.recycled);
    expect(lineage.t1.events.every((e: { host: string }) => e.host === "host-a")).toBe(true);
    expect(view(onPg(["hygiene"]).json)).toEqual(hygiene);

    // the stored plan still applies, through the fleet's registry
    const applied = onPg(["cleanup", "apply", planId]);
    expect(applied.code, applied.stdout).toBe(0);
    expect(applied.json.done).toBeGreaterThan(0);

    // a shell that lost ORCHARD_REGISTRY is sent to the fleet's registry, never acts on the moved rows as its own (SPEC v4 §4.11)
    const stale = onSqlite(["list"]);
    expect(stale.code, stale.stdout + stale.stderr).toBe(1);
    expect(stale.json.error).toMatchObject({ code: "registry_moved" });
    expect(stale.json.error.message).not.toContain("postgres://postgres:"); // the URL's password, if any, stays hidden
    expect(digest(registryFile())).toBe(before.digest);
  });

  it("a registry from before hosts existed is migrated as a copy: its rows take this host's name, a taken repo name is disambiguated, the file stays at its version", async () => {
    const old = join(s.root, "v2.db");
    const db = new Database(old);
    db.exec(V1.sqlite);
    db.prepare("INSERT INTO repos VALUES ('file:/r', 'app', '/src/app', '/src/app/.git', 'T0', 'T0')").run();
    db.prepare(
      "INSERT INTO worktrees (repo, handle, path, branch, task, lifecycle, created_at, updated_at, last_activity_at) VALUES ('file:/r', 'app@x', '/w/app@x', 'x', 't-1', 'active', 'T1', 'T1', 'T1')",
    ).run();
    db.prepare("INSERT INTO events (at, kind, repo, handle, task, data) VALUES ('T1', 'created', 'file:/r', 'app@x', 't-1', '{}')").run();
    db.pragma("user_version = 2");
    db.close();
    const before = digest(old);
    expect(s.orchard(["list"], { env: { ORCHARD_HOST: "host-z", ORCHARD_REGISTRY: pg.url } }).code).toBe(0); // the fleet's "app" is another repo
    const r = s.orchard(["registry", "migrate", "--from", old, "--to", pg.url], { env: { ORCHARD_HOST: "old-laptop" } });
    expect(r.code, r.stdout).toBe(0);
    expect(r.json).toMatchObject({ sourceVersion: 2, hosts: ["old-laptop"], counts: { repos: 1, primaries: 1, worktrees: 1, events: 1 } });
    expect(r.json.repos).toEqual([{ identity: "file:/r", action: "renamed", name: expect.stringMatching(/^app-[0-9a-f]{6}$/) }]);
    expect(await pg.query("SELECT host, handle FROM worktrees")).toEqual([{ host: "old-laptop", handle: "app@x" }]);
    expect(await pg.query("SELECT host, kind FROM events")).toEqual([{ host: "old-laptop", kind: "created" }]);
    expect(digest(old)).toBe(before);
    const after = new Database(old, { readonly: true });
    expect(after.pragma("user_version", { simple: true })).toBe(2);
    after.close();
  });

  it("refuses a second migration of the same host's rows: exit 3, nothing written", async () => {
    busyWorkspace();
    expect(onSqlite(["registry", "migrate", "--from", registryFile(), "--to", pg.url]).code).toBe(0);
    const counts = await pgCounts();
    const again = onSqlite(["registry", "migrate", "--from", registryFile(), "--to", pg.url]);
    expect(again.code).toBe(3);
    expect(again.json).toMatchObject({ ok: false, hosts: ["host-a"], reasons: [{ code: "host_rows_present", hosts: ["host-a"] }] });
    expect(again.json.reasons[0].present.worktrees).toBe(counts.worktrees);
    expect(await pgCounts()).toEqual(counts);
  });

  it("refuses bad input with exit 2 and writes nothing anywhere", async () => {
    onSqlite(["add", "feat-a"]);
    const notSqlite = join(s.root, "notes.db");
    writeFileSync(notSqlite, "not a database, just words that are long enough to fill a SQLite header page\n".repeat(4));
    const otherDb = join(s.root, "other.db");
    new Database(otherDb).exec("CREATE TABLE things (x)").close();
    const cases: [string[], string][] = [
      [["--from", join(s.root, "missing.db"), "--to", pg.url], "invalid_argument"],
      [["--from", s.root, "--to", pg.url], "invalid_argument"],
      [["--from", notSqlite, "--to", pg.url], "not_a_registry"],
      [["--from", otherDb, "--to", pg.url], "not_a_registry"],
      [["--from", registryFile(), "--to", "mysql://root@127.0.0.1/test"], "invalid_registry"],
      [["--from", registryFile(), "--to", join(s.root, "target.db")], "invalid_registry"],
    ];
    for (const [args, code] of cases) {
      const r = onSqlite(["registry", "migrate", ...args]);
      expect(r.code, `${args.join(" ")}: ${r.stdout}`).toBe(2);
      expect(r.json.error.code).toBe(code);
    }
    const missingTo = onSqlite(["registry", "migrate", "--from", registryFile()]);
    expect(missingTo.code).toBe(2);
    expect(await pgTables()).toEqual([]);
    expect(existsSync(join(s.root, "target.db"))).toBe(false);
  });

  it("killed before its commit, the migration leaves nothing in PostgreSQL; run again, it completes", async () => {
    busyWorkspace();
    const expected = sqliteCounts();
    const killed = s.orchard(["registry", "migrate", "--from", registryFile(), "--to", pg.url], {
      env: { ...HOST, ORCHARD_FAULT_AT: "migrate-before-commit" },
    });
    expect(killed.code).toBe(-1); // SIGKILL: no exit status
    const empty = await pgCounts();
    expect(Object.values(empty).every((n) => n === 0)).toBe(true);
    const r = onSqlite(["registry", "migrate", "--from", registryFile(), "--to", pg.url]);
    expect(r.code).toBe(0);
    expect(await pgCounts()).toEqual(expected);
  });
});
