// The navigation snapshot (registry/peek-snapshot.ts): `orchard path` and a TAB answered from
// `<home>/cache/nav.json` while the registry's files are the ones it was read from, without the
// SQLite driver. Every answer is the full command line's; a registry change is seen at the very
// next call; a snapshot that is not ours, whole and current is ignored; a cache that cannot be
// written costs the snapshot, never the answer. The snapshot is written only once the registry
// has been still for a while (its clock margin), so the tests poll until it answers.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const TRACE = { ORCHARD_TRACE: "1" };
const FROM_SNAPSHOT = "[orchard trace] quick: answered from the snapshot";
const snapshotFile = (): string => join(s.home, "cache", "nav.json");
const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const add = (...args: string[]): { handle: string; path: string; branch: string } => {
  const r = s.orchard(["add", ...args]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};

/** `orchard path <name>` (the quick path) and the whole command line's answer (`--`: a spelling only it reads). */
function both(name: string): { quick: ReturnType<Scenario["orchard"]>; full: ReturnType<Scenario["orchard"]> } {
  return { quick: s.orchard(["path", name], { env: TRACE }), full: s.orchard(["path", "--", name]) };
}

/** Calls `orchard path <name>` until the snapshot answers it (it is written once the registry has been still a while). */
function untilSnapshot(name: string): ReturnType<Scenario["orchard"]> {
  for (let i = 0; i < 200; i++) {
    const r = s.orchard(["path", name], { env: TRACE });
    if (r.stderr.includes(FROM_SNAPSHOT)) return r;
    sleep(100);
  }
  throw new Error(`the snapshot never answered ${name}`);
}

describe("the navigation snapshot", () => {
  it("answers a handle, a path, a branch, a task and a TAB once written: the full command line's answers, no driver", () => {
    const a = add("feat-s", "--task", "T-17");
    add("feat-other", "--task", "T-18");
    untilSnapshot(a.handle);
    expect(existsSync(snapshotFile())).toBe(true);
    for (const name of [a.handle, a.path, "feat-s", "t-17", "T-18", "no-such-thing"]) {
      const { quick, full } = both(name);
      expect(quick.json, name).toEqual(full.json);
      expect(quick.code, name).toBe(full.code);
      if (name !== "no-such-thing") expect(quick.stderr, name).toContain(FROM_SNAPSHOT);
    }
    // no SQLite driver is loaded: Node's module trace names no better-sqlite3 (the SQLite path's does)
    const traced = s.orchard(["path", a.handle], { env: { ...TRACE, NODE_DEBUG: "module" } });
    expect(traced.stderr).toContain(FROM_SNAPSHOT);
    expect(traced.stderr).not.toMatch(/better.sqlite3|node:sqlite/);
    const handles = s.orchard(["__complete", "handles"], { json: false, env: TRACE });
    expect(handles.stderr).toContain(FROM_SNAPSHOT);
    expect(handles.stdout.trim().split("\n").sort()).toEqual(
      s
        .orchard(["list"])
        .json.worktrees.flatMap((w: { handle: string | null }) => (w.handle ? [w.handle] : []))
        .sort(),
    );
  });

  it("a registry change is seen at the very next call: add, release, remove, recycle, a row removed by another program", () => {
    const old = add("feat-old", "--task", "T-9", "--owner", "a");
    const gone = add("feat-gone", "--task", "T-10");
    untilSnapshot("t-9");

    // the task's active worktree is a new one: the released one is no longer the answer
    expect(s.orchard(["release", old.handle, "--owner", "a"]).code).toBe(0);
    const current = add("feat-new", "--task", "T-9");
    let r = both("t-9");
    expect(r.quick.stderr).not.toContain(FROM_SNAPSHOT);
    expect(r.quick.json).toEqual(r.full.json);
    expect(r.quick.json).toMatchObject({ path: current.path, others: [old.handle] });

    // a removed worktree is not answered
    untilSnapshot(gone.handle);
    expect(s.orchard(["remove", gone.handle]).code).toBe(0);
    r = both(gone.handle);
    expect(r.quick.stderr).not.toContain(FROM_SNAPSHOT);
    expect(r.quick.code).toBe(r.full.code);
    expect(r.quick.code).not.toBe(0);
    expect(s.orchard(["path", "t-10"]).code).not.toBe(0);

    // a recycled worktree moves to its new handle: the old one's path is not answered
    untilSnapshot(old.handle);
    const recycled = s.orchard(["recycle", old.handle, "--branch", "feat-renamed", "--task", "T-11"]);
    expect(recycled.code, recycled.stderr).toBe(0);
    for (const name of [old.handle, "t-11", "feat-renamed"]) {
      r = both(name);
      // the first call reads the registry; a later one may answer from the snapshot that call wrote
      if (name === old.handle) expect(r.quick.stderr, name).not.toContain(FROM_SNAPSHOT);
      expect(r.quick.json, name).toEqual(r.full.json);
      expect(r.quick.code, name).toBe(r.full.code);
    }
    expect(s.orchard(["path", "t-11"]).json).toMatchObject({ path: recycled.json.path });

    // a row another program removed: the snapshot's answer for it is never given again
    untilSnapshot(current.handle);
    const db = new Database(join(s.home, "orchard.db"));
    db.prepare("DELETE FROM worktrees WHERE handle = ?").run(current.handle);
    db.close();
    r = both(current.handle);
    expect(r.quick.stderr).not.toContain(FROM_SNAPSHOT);
    expect(r.quick.code).toBe(r.full.code);
    expect(r.quick.json).toEqual(r.full.json);
  });

  it("a snapshot that is corrupt, forged, not ours alone or from another registry is ignored, and written anew", () => {
    const a = add("feat-f", "--task", "T-5");
    const b = add("feat-g", "--task", "T-6");
    untilSnapshot(a.handle);
    const good = readFileSync(snapshotFile(), "utf8");
    const parsed = JSON.parse(good);
    /** Points the snapshot's row of `a` at `b`'s directory (a real directory: an answer only a trusted snapshot could give). */
    const lying = (change: (snap: typeof parsed) => void): string => {
      const snap = JSON.parse(good);
      for (const repo of snap.repos) for (const row of repo.rows) if (row.handle === a.handle) row.path = b.path;
      change(snap);
      return JSON.stringify(snap);
    };
    const cases: Record<string, () => void> = {
      "does not parse": () => writeFileSync(snapshotFile(), good.slice(0, good.length / 2)),
      "another token": () =>
        writeFileSync(
          snapshotFile(),
          lying((snap) => (snap.token = `${snap.token}x`)),
        ),
      "another version": () =>
        writeFileSync(
          snapshotFile(),
          lying((snap) => (snap.version = 99)),
        ),
      "another schema": () =>
        writeFileSync(
          snapshotFile(),
          lying((snap) => (snap.schema += 1)),
        ),
      "another host": () =>
        writeFileSync(
          snapshotFile(),
          lying((snap) => (snap.host = "elsewhere")),
        ),
      "another registry": () =>
        writeFileSync(
          snapshotFile(),
          lying((snap) => (snap.db = `${snap.db}x`)),
        ),
      "taken in the future": () =>
        writeFileSync(
          snapshotFile(),
          lying((snap) => (snap.takenAt = Date.now() + 3_600_000)),
        ),
      "another shape": () =>
        writeFileSync(
          snapshotFile(),
          lying((snap) => (snap.repos[0].rows = [{ handle: 1 }])),
        ),
      "writable by others": () => {
        writeFileSync(
          snapshotFile(),
          lying(() => {}),
        );
        chmodSync(snapshotFile(), 0o666);
      },
      "a symbolic link": () => {
        const elsewhere = join(s.root, "nav-elsewhere.json");
        writeFileSync(
          elsewhere,
          lying(() => {}),
          { mode: 0o600 },
        );
        rmSync(snapshotFile());
        symlinkSync(elsewhere, snapshotFile());
      },
    };
    for (const [what, forge] of Object.entries(cases)) {
      forge();
      const { quick, full } = both(a.handle);
      expect(quick.stderr, what).not.toContain(FROM_SNAPSHOT);
      expect(quick.json, what).toEqual(full.json);
      expect(quick.json.path, what).toBe(a.path);
      // read from the registry, and written anew: the next call is the snapshot's again
      expect(untilSnapshot(a.handle).json.path, what).toBe(a.path);
    }
  });

  it("a registry moved elsewhere (its marker) is not answered from the snapshot", () => {
    const a = add("feat-m");
    untilSnapshot(a.handle);
    writeFileSync(join(s.home, "orchard.db.moved"), "postgres://elsewhere\n");
    const r = s.orchard(["path", a.handle], { env: TRACE });
    expect(r.stderr).not.toContain(FROM_SNAPSHOT);
    expect(r.stderr).toContain("quick: the registry cannot be peeked");
  });

  it("where the cache cannot be written, no snapshot is, and every call still answers from the registry", () => {
    const a = add("feat-ro", "--task", "T-3");
    // the cache's place taken by a file (root writes through a read-only directory's mode; nobody makes a directory over a file)
    rmSync(join(s.home, "cache"), { recursive: true, force: true });
    writeFileSync(join(s.home, "cache"), "not a directory\n");
    // until a call had a snapshot to write (the registry still long enough) and could not: each answers all the same
    for (let i = 0; ; i++) {
      const r = s.orchard(["path", "t-3"], { env: TRACE });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json.path).toBe(a.path);
      expect(r.stderr).not.toContain(FROM_SNAPSHOT);
      expect(r.stderr).toContain("[orchard trace] quick: answered from the registry");
      if (/not written: (the cache is not a directory|cannot be written)/.test(r.stderr)) break;
      expect(i, r.stderr).toBeLessThan(200);
      sleep(100);
    }
    expect(existsSync(snapshotFile())).toBe(false);
  });

  it("a reader that goes away ends the quick answer, not the command: no stack trace, exit 0", () => {
    const a = add("feat-pipe");
    for (const args of [
      ["path", a.handle],
      ["__complete", "handles"],
    ]) {
      // `true` exits at once, so the answer meets a closed pipe
      const r = spawnSync(
        "sh",
        ["-c", `("$@" 2>"$0.err"; echo $? >"$0.code") | true`, join(s.root, "pipe"), process.execPath, CLI, "--home", s.home, ...args],
        {
          cwd: s.primary,
          env: hermeticEnv(TRACE),
          encoding: "utf8",
          timeout: PROCESS_TIMEOUT_MS,
        },
      );
      expect(r.status).toBe(0);
      const err = readFileSync(join(s.root, "pipe.err"), "utf8");
      expect(err, args.join(" ")).toContain("[orchard trace] quick: answered from the");
      expect(err, args.join(" ")).not.toMatch(/Error|EPIPE|at /);
      expect(readFileSync(join(s.root, "pipe.code"), "utf8").trim(), args.join(" ")).toBe("0");
    }
  });
});
