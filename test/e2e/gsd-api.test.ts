// The rest of GSD's API side by side: the read-only functions on one scenario (GSD 1.42.3's module
// and orchard-worktrees/gsd read the same repository), GSD's pure functions on the same input, and
// the two command entry points run as gsd-tools runs them (a process, JSON on stdout, exit code).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hermeticEnv, makeProcessEnvHermetic } from "../helpers/env.js";
import { Scenario } from "../helpers/scenario.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";
import { ADAPTER, GSD_LIB, adapter, agentWorktree, gsd, lockOld } from "../helpers/gsd.js";

let s: Scenario;
let linked: string;
let gone: string;

beforeAll(() => {
  makeProcessEnvHermetic();
  s = Scenario.create();
  linked = agentWorktree(s, "worktree-agent-a", "none");
  gone = s.worktree("gone");
  rmSync(gone, { recursive: true, force: true });
  adapter.configure!({ home: s.home });
});

afterAll(() => s?.cleanup());

describe("GSD's read-only functions: the same answers on the same repository", () => {
  it("resolveWorktreeContext from the primary, a linked worktree, a directory with .planning, and outside any repository", () => {
    mkdirSync(join(s.root, "plain", ".planning"), { recursive: true });
    for (const cwd of [s.primary, linked, join(s.root, "plain"), s.root]) {
      const { primary: _, ...ours } = adapter.resolveWorktreeContext!(cwd);
      expect(ours, cwd).toEqual(gsd.resolveWorktreeContext!(cwd));
    }
    expect(adapter.resolveWorktreeContext!(linked).primary).toBe(s.primary); // Orchard's field, added
  });

  it("listLinkedWorktreePaths, and its failure outside a repository", () => {
    expect(adapter.listLinkedWorktreePaths!(s.primary)).toEqual(gsd.listLinkedWorktreePaths!(s.primary));
    const { error, ...outside } = adapter.listLinkedWorktreePaths!(s.root);
    expect(outside).toEqual(gsd.listLinkedWorktreePaths!(s.root));
    expect(error.code).toBe("not_a_repository");
  });

  it("snapshotWorktreeInventory and inspectWorktreeHealth: GSD's facts alone, no assessment", () => {
    const options = { staleAfterMs: 0, nowMs: Date.now() + 120_000 };
    expect(adapter.snapshotWorktreeInventory!(s.primary, options)).toEqual(gsd.snapshotWorktreeInventory!(s.primary, options));
    expect(adapter.inspectWorktreeHealth!(s.primary, options)).toEqual(gsd.inspectWorktreeHealth!(s.primary, options));
  });

  it("snapshotWorktreeInventory and inspectWorktreeHealth with {assess: true}: Orchard's disposition of each worktree added", () => {
    const options = { staleAfterMs: 0, nowMs: Date.now() + 120_000 };
    const ours = adapter.snapshotWorktreeInventory!(s.primary, { ...options, assess: true });
    const strip = ({ disposition: _, reasons: __, ...gsdFields }: Record<string, unknown>) => gsdFields;
    expect({ ...ours, entries: ours.entries.map(strip) }).toEqual(gsd.snapshotWorktreeInventory!(s.primary, options));
    expect(ours.entries.map((e: { disposition: string }) => e.disposition)).toEqual(["missing", "idle"]);
    const health = adapter.inspectWorktreeHealth!(s.primary, { ...options, assess: true });
    expect({ ...health, findings: health.findings.map(strip) }).toEqual(gsd.inspectWorktreeHealth!(s.primary, options));
    expect(health.findings.map((f: { disposition: string }) => f.disposition)).toEqual(["missing", "idle"]);
  });

  it("planWorktreePrune, with the entries the prune would drop", () => {
    const { missing, ...plan } = adapter.planWorktreePrune!(s.primary, { allowDestructive: true });
    expect(plan).toEqual(gsd.planWorktreePrune!(s.primary, { allowDestructive: true }));
    expect(missing).toEqual([gone]);
  });
});

describe("GSD's pure functions: the same answers on the same input", () => {
  const base = "0123456789abcdef0123456789abcdef01234567";
  const entry = (name: string, extra: object = {}) => ({
    agent_id: name,
    worktree_path: `/w/${name}`,
    branch: `worktree-agent-${name}`,
    expected_base: base,
    ...extra,
  });

  it("parseWorktreePorcelain", () => {
    const text = "worktree /r\nHEAD 1\nbranch refs/heads/main\n\nworktree /r/x\nHEAD 2\ndetached\n\nworktree /r/y\nHEAD 3\nbranch refs/heads/f/y\n\n";
    expect(adapter.parseWorktreePorcelain!(text)).toEqual(gsd.parseWorktreePorcelain!(text));
    expect(adapter.parseWorktreePorcelain!(undefined)).toEqual(gsd.parseWorktreePorcelain!(undefined));
  });

  it("normalizeCleanupManifest and planWorktreeWaveCleanup on valid manifests, an exact repeat, bad JSON and nothing", () => {
    for (const manifest of [[entry("a"), entry("b")], { worktrees: [entry("a"), entry("a")] }, JSON.stringify([entry("a")]), "{", [], {}]) {
      expect(adapter.normalizeCleanupManifest!(manifest)).toEqual(gsd.normalizeCleanupManifest!(manifest));
      expect(adapter.planWorktreeWaveCleanup!("/r", manifest)).toEqual(gsd.planWorktreeWaveCleanup!("/r", manifest));
    }
  });

  it("an invalid entry: GSD drops it and goes on; Orchard refuses the manifest and names every invalid entry", () => {
    const manifest = [entry("a"), entry("b", { branch: "main" }), { worktree_path: "/w/c" }];
    expect(gsd.normalizeCleanupManifest!(manifest)).toMatchObject({ ok: true, entries: [{ branch: "worktree-agent-a" }] });
    const ours = adapter.normalizeCleanupManifest!(manifest);
    expect(ours).toMatchObject({ ok: false, reason: "invalid_manifest", entries: [] });
    // a numeric agent_id: GSD drops it (null), Orchard keeps it as text
    expect([gsd, adapter].map((m) => m.normalizeCleanupManifest!([entry("a", { agent_id: 7 })]).entries[0].agent_id)).toEqual([null, "7"]);
    expect(ours.invalid.map((i: { index: number; reason: string }) => `${i.index}:${i.reason}`)).toEqual([
      "1:branch_not_allowed",
      "2:missing_branch",
      "2:missing_expected_base",
    ]);
  });
});

describe("the command entry points, run as gsd-tools runs them", () => {
  const run = (module: string, call: string) =>
    spawnSync(
      process.execPath,
      ["-e", `const m = require(${JSON.stringify(module)}); if (m.configure) m.configure({ home: ${JSON.stringify(s.home)} }); ${call}`],
      {
        cwd: s.primary,
        env: hermeticEnv(),
        encoding: "utf8",
        timeout: PROCESS_TIMEOUT_MS,
      },
    );

  it("cmdWorktreeCleanupWave: without --manifest, with a manifest it cannot read, and with an invalid one", () => {
    const manifest = join(s.root, "wave.json");
    writeFileSync(manifest, JSON.stringify([{ worktree_path: linked, branch: "not-an-agent", expected_base: "main" }]));
    for (const args of [[], ["--manifest", join(s.root, "nothing.json")], ["--manifest", manifest]]) {
      const call = `m.cmdWorktreeCleanupWave(process.cwd(), ${JSON.stringify(args)})`;
      const [a, b] = [run(join(GSD_LIB, "worktree-safety.cjs"), call), run(ADAPTER, call)];
      expect([b.status, b.stderr]).toEqual([a.status, a.stderr]);
      const [ga, gb] = [a.stdout ? JSON.parse(a.stdout) : null, b.stdout ? JSON.parse(b.stdout) : null];
      if (ga?.error)
        expect({ ...gb, error: "" }).toEqual({ ...ga, error: "" }); // the read error's wording is Node's
      else if (gb?.result?.invalid) expect(gb).toMatchObject({ ok: false, plan: { action: "skip", reason: "invalid_manifest" } });
      else expect(gb).toEqual(ga);
    }
  });

  it("an ES module caller, and a script given on the command line (`node --input-type=module -e`), get the same answers", () => {
    const r = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import * as m from ${JSON.stringify(ADAPTER.replace(/gsd\.cjs$/, "gsd/index.js"))}; m.configure({ home: ${JSON.stringify(s.home)} });
         process.stdout.write(JSON.stringify(m.listLinkedWorktreePaths(process.cwd())));`,
      ],
      { cwd: s.primary, env: hermeticEnv({ ORCHARD_GSD_TIMEOUT_MS: "60000" }), encoding: "utf8", timeout: PROCESS_TIMEOUT_MS },
    );
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual(gsd.listLinkedWorktreePaths!(s.primary));
  });

  it("cmdWorktreeReapOrphans: exit 0, GSD's JSON on stdout, GSD's warning line for what it skipped", () => {
    lockOld(s, linked, "agent busy");
    const b = run(ADAPTER, "m.cmdWorktreeReapOrphans(process.cwd())");
    expect(b.status).toBe(0);
    expect(b.stderr).toBe("[gsd] worktree.reap-orphans: 1 orphan(s) skipped (run with DEBUG=1 for details)\n");
    expect(JSON.parse(b.stdout)).toMatchObject({ ok: true, reaped: 0, entries: [{ path: linked, status: "skipped", reason: "lock_owner_unknown" }] });
  });
});
