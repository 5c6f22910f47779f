// One task written several ways is one task (SPEC v2 §1 task): same_task candidates, one
// duplicate group, the whole lineage — and the migration that re-canonicalises tasks recorded
// under the v1 rule, against real git, the real CLI and a real SQLite file.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { join } from "node:path";
import { Scenario } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const URL = "https://github.com/gsd-build/get-shit-done/issues/3707";
const SHORT = "gsd-build/get-shit-done#3707";
const CANONICAL = "github.com/gsd-build/get-shit-done#3707";

const ok = (args: string[]) => {
  const r = s.orchard(args);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};

describe("forge references", () => {
  it("the URL and owner/repo#N are one task: a same_task candidate, one duplicate group, the whole lineage", () => {
    const first = ok(["add", "fix-3707", "--task", URL, "--owner", "agent-a"]);
    expect(first.task).toBe(CANONICAL);
    const second = ok(["add", "fix-3707-b", "--task", SHORT, "--owner", "agent-b"]);
    expect(second.task).toBe(CANONICAL);
    expect(second.candidates).toMatchObject([{ handle: first.handle, kind: "same_task" }]);

    const report = ok(["hygiene"]);
    expect(report.duplicateTaskGroups).toEqual([
      expect.objectContaining({ task: CANONICAL, handles: [first.handle, second.handle].sort(), canonical: expect.any(String) }),
    ]);

    for (const spelling of [URL, SHORT, "http://GitHub.com/GSD-Build/Get-Shit-Done/issues/3707/", "github.com/gsd-build/get-shit-done/issues/3707"]) {
      const events = ok(["lineage", spelling]).events as { kind: string; handle: string }[];
      expect(events.map((e) => [e.kind, e.handle])).toEqual([
        ["created", first.handle],
        ["created", second.handle],
      ]);
    }
  });

  it("#N and GH-N resolve against a GitHub origin", () => {
    s.git("remote", "set-url", "origin", "git@github.com:GSD-Build/get-shit-done.git"); // no fetch ever happens: refs stay as they are
    const first = ok(["add", "fix-a", "--task", "#3707"]);
    expect(first.task).toBe(CANONICAL);
    const second = ok(["add", "fix-b", "--task", "GH-3707"]);
    expect(second.candidates).toMatchObject([{ handle: first.handle, kind: "same_task" }]);
    const third = ok(["add", "fix-c", "--task", URL]);
    expect(third.candidates.map((c: { handle: string }) => c.handle).sort()).toEqual([first.handle, second.handle].sort());
  });

  it("#N without a forge origin stays plain text", () => {
    expect(ok(["add", "fix-a", "--task", " #3707 "]).task).toBe("#3707");
  });

  it("the raw text is kept beside the canonical form (bootstrap templates see what the caller wrote)", () => {
    ok(["add", "fix-a", "--task", SHORT, "--no-bootstrap"]);
    const db = new Database(join(s.home, "orchard.db"), { readonly: true });
    try {
      expect(db.prepare("SELECT task, task_raw AS raw FROM worktrees").get()).toEqual({ task: CANONICAL, raw: SHORT });
    } finally {
      db.close();
    }
  });
});

describe("migration of tasks recorded under the v1 rule", () => {
  /** Rewinds the registry to schema 1 with the tasks as v1 canonicalised them (scheme kept, path case kept, plain text lowercased). */
  function rewindToV1(): void {
    const db = new Database(join(s.home, "orchard.db"));
    try {
      db.exec("DROP TRIGGER events_append_only_update");
      db.prepare("UPDATE worktrees SET task = ? WHERE task_raw = ?").run(URL, URL);
      db.prepare("UPDATE worktrees SET task = ? WHERE task_raw = ?").run(SHORT, SHORT);
      db.prepare("UPDATE events SET task = ? WHERE handle LIKE '%fix-3707'").run(URL);
      db.prepare("UPDATE events SET task = ? WHERE handle LIKE '%fix-3707-b'").run(SHORT);
      db.exec("CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;");
      // and undo v3 (hosts), so the registry is the v1 shape the migrations start from
      db.exec(`
        DROP TABLE primaries; DROP TABLE host_summaries; DROP INDEX events_host_kind; DROP INDEX worktrees_host;
        ALTER TABLE events DROP COLUMN host; ALTER TABLE plans DROP COLUMN host; ALTER TABLE worktrees DROP COLUMN last_owner;
        CREATE TABLE trust_v1 (repo TEXT NOT NULL, config_hash TEXT NOT NULL, trusted_at TEXT NOT NULL, PRIMARY KEY (repo, config_hash));
        INSERT INTO trust_v1 SELECT repo, config_hash, trusted_at FROM trust; DROP TABLE trust; ALTER TABLE trust_v1 RENAME TO trust;
        DROP INDEX worktrees_live_handle;
        CREATE UNIQUE INDEX worktrees_live_handle ON worktrees(handle) WHERE lifecycle IN ('creating','active','terminal');`);
      db.pragma("user_version = 1");
    } finally {
      db.close();
    }
  }

  it("re-canonicalises rows and events, so old rows join their group and lineage", () => {
    const first = ok(["add", "fix-3707", "--task", URL]);
    const second = ok(["add", "fix-3707-b", "--task", SHORT]);
    rewindToV1();

    const report = ok(["hygiene"]);
    expect(report.duplicateTaskGroups).toMatchObject([{ task: CANONICAL, handles: [first.handle, second.handle].sort() }]);
    expect(ok(["lineage", SHORT]).events.map((e: { kind: string; handle: string }) => [e.kind, e.handle])).toEqual([
      ["created", first.handle],
      ["preventable_duplicate", second.handle],
      ["created", second.handle],
    ]);

    const db = new Database(join(s.home, "orchard.db"));
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(4);
      expect(() => db.prepare("UPDATE events SET task = 'x'").run()).toThrow(/append-only/); // the trigger is back
    } finally {
      db.close();
    }
  });
});
