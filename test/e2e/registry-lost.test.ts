// Without the registry (issue 21 item 5, SPEC §5): with orchard.db* deleted, hygiene, list and
// status take each managed worktree's identity (handle, task, owner, base) from its identity file
// instead of calling it foreign and suggesting a raw `git worktree remove`; reads write nothing;
// the next write command restores the rows.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Scenario } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

interface Seen {
  handle: string | null;
  managed: boolean;
  task: string | null;
  owner: string | null;
  base: { ref: string | null } | null;
  disposition?: string;
  suggestion?: { command: string | null };
}

const rows = (): { handle: string; task: string | null; owner: string | null; lifecycle: string }[] => {
  const db = new Database(join(s.home, "orchard.db"), { readonly: true });
  try {
    return db.prepare("SELECT handle, task, owner, lifecycle FROM worktrees ORDER BY handle").all() as never;
  } finally {
    db.close();
  }
};

describe("the registry deleted", () => {
  it("reads take identity from each worktree's identity file; the next write restores the rows", () => {
    const a = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "alice", "--no-bootstrap"]);
    const b = s.orchard(["add", "feat-b", "--no-bootstrap"]);
    expect([a.code, b.code]).toEqual([0, 0]);
    for (const name of readdirSync(s.home)) if (name.startsWith("orchard.db")) rmSync(join(s.home, name));

    const expected = [
      { handle: a.json.handle, managed: true, task: a.json.task, owner: "alice", base: expect.objectContaining({ ref: "refs/heads/main" }) },
      { handle: b.json.handle, managed: true, task: null, owner: null, base: expect.objectContaining({ ref: "refs/heads/main" }) },
    ];
    const pick = (w: Seen) => ({ handle: w.handle, managed: w.managed, task: w.task, owner: w.owner, base: w.base });

    const h = s.orchard(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    expect(h.json.summary).toMatchObject({ managed: 2, foreign: 0 });
    const seen = (h.json.worktrees as Seen[]).sort((x, y) => String(x.handle).localeCompare(String(y.handle)));
    expect(seen.map(pick)).toEqual(expected);
    // alice's lease comes back with its heartbeat from the identity file (SPEC v4 §4.11): still live;
    // the other is fresh, clean and held by nobody: idle — what a managed worktree is, not a foreign one to remove with git
    expect(seen.map((w) => w.disposition)).toEqual(["live", "idle"]);
    for (const w of seen) expect(w.suggestion?.command ?? "").not.toMatch(/^git worktree remove/);

    const l = s.orchard(["list"]);
    expect(l.code, l.stderr).toBe(0);
    expect((l.json.worktrees as Seen[]).map(pick).sort((x, y) => String(x.handle).localeCompare(String(y.handle)))).toEqual(expected);

    const st = s.orchard(["status", a.json.handle]);
    expect(st.code, st.stdout + st.stderr).toBe(0);
    expect(pick(st.json.worktree)).toEqual(expected[0]);
    const byPath = s.orchard(["status", b.json.path]);
    expect(pick(byPath.json.worktree)).toEqual(expected[1]);

    expect(rows()).toEqual([]); // reads wrote nothing

    // a write: the add of another task restores both rows before it decides
    const c = s.orchard(["add", "feat-c", "--task", "T-2", "--no-bootstrap"]);
    expect(c.code, c.stdout + c.stderr).toBe(0);
    expect(rows()).toEqual([
      { handle: a.json.handle, task: a.json.task, owner: "alice", lifecycle: "active" },
      { handle: b.json.handle, task: null, owner: null, lifecycle: "active" },
      { handle: c.json.handle, task: c.json.task, owner: null, lifecycle: "active" },
    ]);
  });
});
