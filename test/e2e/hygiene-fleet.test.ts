// `hygiene` publishes its summary per host, and `hygiene --fleet` reports across the hosts of one
// shared registry (SPEC §5): two simulated hosts (two clones of one bare origin, two workspaces,
// ORCHARD_HOST host-a / host-b, one PostgreSQL schema) hold the same task; the report groups them
// across hosts (this host's member judged from its facts, the other's from its heartbeat alone),
// counts preventable duplicates by host, and shows each host's published backlog with its age —
// as JSON, a table and an HTML page written through the safe temporary-file path. Lineage spans hosts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { createSchema, pgAvailable, type TestSchema } from "../helpers/postgres.js";

let s: Scenario;
let pg: TestSchema;
let cloneB: string;

beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const hostA = (args: string[], json = true) => s.orchard(args, { env: { ORCHARD_HOST: "host-a", ORCHARD_REGISTRY: pg.url }, json });
const hostB = (args: string[]) =>
  s.orchard([...args, "--home", join(s.root, "home-b"), "--repo", cloneB], { env: { ORCHARD_HOST: "host-b", ORCHARD_REGISTRY: pg.url }, cwd: cloneB });

describe("hygiene --fleet on the embedded registry", () => {
  it("one host: its own summary, published by the hygiene it runs first", () => {
    s.orchard(["add", "feat-a"], { env: { ORCHARD_HOST: "solo" } });
    const r = s.orchard(["hygiene", "--fleet"], { env: { ORCHARD_HOST: "solo" } });
    expect(r.code, r.stdout).toBe(0);
    expect(r.json).toMatchObject({ ok: true, host: "solo", hosts: ["solo"], duplicateTaskGroups: [], preventableDuplicates: { count: 0, byHost: {} } });
    expect(r.json.backlog.byHost).toEqual([
      {
        host: "solo",
        repo: r.json.repos[0].identity,
        publishedAt: expect.any(String),
        ageMs: expect.any(Number),
        summary: expect.objectContaining({ generatedAt: r.json.generatedAt, worktrees: 1 }),
      },
    ]);
  });
});

describe.skipIf(!pgAvailable())("hygiene --fleet across two hosts of one PostgreSQL registry", () => {
  beforeEach(async () => {
    pg = await createSchema();
    cloneB = join(s.root, "app-b");
    git(s.root, "clone", "-q", s.origin, cloneB);
  });
  afterEach(async () => {
    await pg.drop();
  });

  it("groups a task held on both hosts, counts preventable duplicates by host, shows each host's backlog", async () => {
    const a = hostA(["add", "feat-a", "--task", "T-1", "--owner", "alice"]).json;
    const b = hostB(["add", "feat-b", "--task", "T-1", "--owner", "<i>bob</i>"]).json;
    expect(b.candidates).toEqual([
      expect.objectContaining({ handle: a.handle, eligible: false, reasons: expect.arrayContaining([expect.objectContaining({ code: "other_host" })]) }),
    ]);
    const p = hostB(["add", "feat-p", "--task", "T-9"]).json;
    hostB(["add", "feat-q", "--task", "T-9"]); // feat-p was reusable on host-b: a preventable duplicate there
    hostB(["release", hostB(["add", "feat-r"]).json.handle]); // released, clean, nothing to keep: reclaimable
    expect(hostB(["hygiene"]).code).toBe(0);
    const published = await pg.query<{ host: string; summary: string }>("SELECT host, summary FROM host_summaries");
    expect(published.map((x) => x.host)).toEqual(["host-b"]);
    expect(JSON.parse(published[0]?.summary ?? "{}")).toMatchObject({
      worktrees: 4,
      backlog: { count: 1, reclaimable: 1, needsAction: 0 },
      preventableDuplicates: 1,
    });

    const r = hostA(["hygiene", "--fleet"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = r.json;
    expect(report).toMatchObject({ ok: true, host: "host-a", hosts: ["host-a", "host-b"], repos: [{ name: "app" }] });
    const t1 = report.duplicateTaskGroups.find((g: { task: string }) => g.task === a.task);
    expect(t1).toMatchObject({ hosts: ["host-a", "host-b"], crossHost: true, live: 2 });
    expect(t1.members).toEqual([
      expect.objectContaining({
        host: "host-a",
        handle: a.handle,
        owner: "alice",
        lifecycle: "active",
        disposition: "live",
        liveness: expect.objectContaining({ state: "live", from: "facts" }),
      }),
      expect.objectContaining({
        host: "host-b",
        handle: b.handle,
        owner: "<i>bob</i>",
        disposition: null,
        liveness: expect.objectContaining({ state: "live", from: "heartbeat" }),
      }),
    ]);
    const t9 = report.duplicateTaskGroups.find((g: { task: string }) => g.task === p.task);
    expect(t9).toMatchObject({ hosts: ["host-b"], crossHost: false, live: 0 });
    expect(report.preventableDuplicates).toMatchObject({ count: 1, byHost: { "host-b": 1 }, recent: [{ host: "host-b", task: p.task }] });
    const byHost = Object.fromEntries(report.backlog.byHost.map((x: { host: string }) => [x.host, x]));
    expect(byHost["host-a"]).toMatchObject({ ageMs: expect.any(Number), summary: { worktrees: 1, backlog: { count: 0 } } });
    expect(byHost["host-b"]).toMatchObject({ ageMs: expect.any(Number), summary: { worktrees: 4, backlog: { count: 1, reclaimable: 1 } } });
    expect(report.backlog.count).toBe(1);

    // host-b's lease goes silent: from host-a it is dead by its heartbeat alone
    await pg.query("UPDATE worktrees SET heartbeat_at = '2000-01-01T00:00:00.000Z' WHERE host = 'host-b' AND handle = $1", [b.handle]);
    const later = hostA(["hygiene", "--fleet"]).json.duplicateTaskGroups.find((g: { task: string }) => g.task === a.task);
    expect(later.live).toBe(1);
    expect(later.members[1].liveness).toMatchObject({ state: "dead", from: "heartbeat", signals: [{ code: "lease_expired" }] });

    const table = hostA(["hygiene", "--fleet"], false);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`duplicate task ${a.task} across host-a, host-b: 2 worktrees, 1 live`);
    expect(table.stdout).toMatch(/host-b\s+app\s+(now|\S+ ago)\s+\S+\s+4\s+1\s+1\s+0/); // host-b's backlog row
    expect(table.stdout).toMatch(new RegExp(`host-b\\s+${b.handle}\\s+<i>bob</i>\\s+active\\s+dead \\(heartbeat\\)`));
    expect(table.stdout).toContain("preventable duplicates: 1 (host-b 1)");

    const lineage = hostA(["lineage", "T-1"]).json.events;
    expect(lineage.map((e: { host: string; handle: string }) => `${e.host} ${e.handle}`)).toEqual([`host-a ${a.handle}`, `host-b ${b.handle}`]);
  });

  it("--html writes one page through a fresh temporary file: values escaped, a symlink at the target replaced, not followed", () => {
    hostA(["add", "feat-a", "--task", "T-1", "--owner", "alice"]);
    hostB(["add", "feat-b", "--task", "T-1", "--owner", "<i>bob</i>"]);
    hostB(["hygiene"]);
    const elsewhere = join(s.root, "precious.txt");
    writeFileSync(elsewhere, "keep me\n");
    const out = join(s.root, "fleet.html");
    symlinkSync(elsewhere, out);
    const r = hostA(["hygiene", "--fleet", "--html", out]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.html).toBe(out);
    expect(readFileSync(elsewhere, "utf8")).toBe("keep me\n");
    expect(lstatSync(out).isSymbolicLink()).toBe(false);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("Orchard fleet hygiene");
    expect(html).toContain("default-src 'none'");
    expect(html).toContain("&lt;i&gt;bob&lt;/i&gt;");
    expect(html).not.toContain("<i>bob</i>");
    expect(html).toMatch(/host-a[\s\S]*host-b/);
    expect(existsSync(`${out}.orchard-tmp`)).toBe(false);
  });
});
