// `release` and `heartbeat` (SPEC §3.2), and the registry's refusal to hide its own failures (§5).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync, existsSync, writeFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { hostname, tmpdir } from "node:os";
import Database from "better-sqlite3";
import { CLI, Scenario, git, liveProcess, waitFor } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";
import { pidState } from "../../src/core/ownership/process.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

describe("release", () => {
  it("ends the lease, removes orchard's git lock, and is idempotent", () => {
    const wt = s.orchard(["add", "feat-a", "--owner", "a1"]).json;
    expect(existsSync(join(s.adminDir(wt.path), "locked"))).toBe(true);
    const r = s.orchard(["release", wt.handle, "--owner", "a1", "--outcome", "abandoned"]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "released", lifecycle: "terminal", outcome: "abandoned", lease: null });
    expect(existsSync(join(s.adminDir(wt.path), "locked"))).toBe(false);
    const again = s.orchard(["release", wt.path]);
    expect(again.code).toBe(0);
    expect(again.json.action).toBe("already_released");
    expect(s.orchard(["status", wt.handle]).json.worktree).toMatchObject({ lifecycle: "terminal", owner: null });
  });

  it("refuses while another owner's lease is live", () => {
    const wt = s.orchard(["add", "feat-a", "--owner", "a1"]).json;
    const r = s.orchard(["release", wt.handle, "--owner", "intruder"]);
    expect(r.code).toBe(3);
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(["live_owner"]);
    expect(existsSync(join(s.adminDir(wt.path), "locked"))).toBe(true);
  });

  it("never removes a foreign lock", () => {
    const wt = s.orchard(["add", "feat-a"]).json;
    const admin = s.adminDir(wt.path);
    writeFileSync(join(admin, "locked"), "claude agent agent-x (pid 1)");
    expect(s.orchard(["release", wt.handle]).json.action).toBe("released");
    expect(readFileSync(join(admin, "locked"), "utf8")).toBe("claude agent agent-x (pid 1)");
  });

  it("adopting a released worktree makes it active again with the new lease", () => {
    const wt = s.orchard(["add", "feat-a", "--owner", "a1"]).json;
    s.orchard(["release", wt.handle, "--owner", "a1"]);
    const r = s.orchard(["add", "feat-a", "--owner", "a2"]);
    expect(r.json).toMatchObject({ action: "adopted", owner: "a2", lease: { owner: "a2" } });
    expect(s.orchard(["status", wt.handle]).json.worktree.lifecycle).toBe("active");
    expect(readFileSync(join(s.adminDir(wt.path), "locked"), "utf8")).toContain('"owner":"a2"');
  });

  it("unknown targets and foreign worktrees are usage errors", () => {
    expect(s.orchard(["release", "app@nope"]).json.error.code).toBe("not_a_worktree");
    const foreign = s.worktree("foreign");
    const r = s.orchard(["release", foreign]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("not_managed");
  });
});

describe("heartbeat", () => {
  it("renews the lease and its expiry", () => {
    const wt = s.orchard(["add", "feat-a", "--owner", "a1", "--ttl", "1m"]).json;
    const r = s.orchard(["heartbeat", wt.handle, "--owner", "a1", "--ttl", "3h"]);
    expect(r.code).toBe(0);
    expect(r.json.action).toBe("renewed");
    expect(Date.parse(r.json.lease.expiresAt) - Date.now()).toBeGreaterThan(2.9 * 3600_000);
    expect(s.orchard(["heartbeat", wt.handle, "--owner", "other"]).code).toBe(3);
  });
});

describe("a terminal worktree is never re-leased (SPEC §3.2)", () => {
  it("a heartbeat after release is refused with not_active (exit 3) and changes nothing", () => {
    const wt = s.orchard(["add", "feat-a", "--owner", "a1", "--no-bootstrap"]).json;
    s.orchard(["release", wt.handle, "--owner", "a1"]);
    const r = s.orchard(["heartbeat", wt.handle, "--owner", "a1", "--ttl", "2h"]);
    expect(r.code).toBe(3);
    expect(r.json).toMatchObject({ ok: false, action: "refused", lifecycle: "terminal", lease: null });
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(["not_active"]);
    const after = s.orchard(["status", wt.handle]).json.worktree;
    expect(after).toMatchObject({ lifecycle: "terminal", owner: null, lock: { locked: false } });
    expect(after.liveness.state).toBe("none");
    expect(existsSync(join(s.adminDir(wt.path), "locked"))).toBe(false);
    const row = s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === wt.path);
    expect(row.disposition).toBe("reclaimable");
  });

  it("a second release clears a lease left on a terminal worktree, and Orchard's lock with it, never a foreign lock", () => {
    const wt = s.orchard(["add", "feat-a", "--owner", "a1", "--no-bootstrap"]).json;
    const other = s.orchard(["add", "feat-b", "--owner", "a1", "--no-bootstrap"]).json;
    s.orchard(["release", wt.handle, "--owner", "a1"]);
    s.orchard(["release", other.handle, "--owner", "a1"]);
    // the state an older heartbeat left behind: terminal, leased, locked by the lease
    const lockText = `orchard-lease ${JSON.stringify({ handle: wt.handle, owner: "a1" })}`;
    git(s.primary, "worktree", "lock", "--reason", lockText, wt.path);
    s.lockAs(other.path, "claude agent agent-x (pid 1)");
    const db = new Database(join(s.home, "orchard.db"));
    db.prepare("UPDATE worktrees SET owner = 'a1', host = ?, heartbeat_at = ?, ttl_ms = 7200000 WHERE handle IN (?, ?) AND lifecycle = 'terminal'").run(
      hostname(),
      new Date().toISOString(),
      wt.handle,
      other.handle,
    );
    db.close();
    expect(s.orchard(["status", wt.handle]).json.worktree.liveness.state).toBe("live");

    const r = s.orchard(["release", wt.handle, "--owner", "a1"]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "already_released", lifecycle: "terminal", lease: null });
    const after = s.orchard(["status", wt.handle]).json.worktree;
    expect(after).toMatchObject({ owner: null, lock: { locked: false } });
    expect(after.liveness.state).toBe("none");

    expect(s.orchard(["release", other.handle, "--owner", "a1"]).json).toMatchObject({ action: "already_released", lease: null });
    expect(readFileSync(join(s.adminDir(other.path), "locked"), "utf8").trimEnd()).toBe("claude agent agent-x (pid 1)");
  });
});

describe("a reader that goes away", () => {
  it("ends the output, not the command: no stack trace, the command's own exit code", () => {
    const first = s.orchard(["add", "feat/a", "--owner", "a1"]);
    const dir = mkdtempSync(join(tmpdir(), "orchard-epipe-"));
    // `true` exits at once, so every write of the JSON meets a closed pipe
    const r = spawnSync("sh", ["-c", `("$@" 2>"${dir}/err"; echo $? >"${dir}/code") | true`, "sh", process.execPath, CLI, "--home", s.home, "--json", "list"], {
      cwd: s.primary,
      env: hermeticEnv(),
      encoding: "utf8",
      timeout: PROCESS_TIMEOUT_MS,
    });
    expect(r.status).toBe(0);
    expect(readFileSync(join(dir, "err"), "utf8")).toBe("");
    expect(readFileSync(join(dir, "code"), "utf8").trim()).toBe("0");
    expect(s.orchard(["list"]).json.worktrees.map((w: { handle: string }) => w.handle)).toEqual([first.json.handle]);
  });
});

describe("registry failures are clear errors (exit 1) and never a reset", () => {
  it("a corrupt database", () => {
    mkdirSync(s.home, { recursive: true });
    const db = join(s.home, "orchard.db");
    writeFileSync(db, "this is not a sqlite database, and it is someone's data".repeat(100));
    const r = s.orchard(["list"]);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe("registry_corrupt");
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    expect(readFileSync(db, "utf8")).toContain("someone's data");
  });

  it("a corrupt page of the live state, found at open before anything is decided", () => {
    s.orchard(["add", "feat/a", "--owner", "a1"]);
    const db = join(s.home, "orchard.db");
    const reader = new Database(db);
    reader.pragma("wal_checkpoint(TRUNCATE)");
    const pageSize = reader.pragma("page_size", { simple: true }) as number;
    // an index `list` does not read: only the check at open can find its page broken
    const root = reader.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'worktrees_task'").pluck().get() as number;
    reader.close();
    const bytes = readFileSync(db);
    bytes[(root - 1) * pageSize] = 0x00; // the b-tree page's type byte: no valid page has 0
    writeFileSync(db, bytes);
    const r = s.orchard(["list"]);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe("registry_corrupt");
    expect(readFileSync(db).equals(bytes)).toBe(true);
  });

  it("a database locked past the busy timeout", async () => {
    s.orchard(["list"]); // creates the registry
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `
      const D = require(${JSON.stringify(join(process.cwd(), "node_modules/better-sqlite3"))});
      const db = new D(${JSON.stringify(join(s.home, "orchard.db"))});
      db.exec("BEGIN EXCLUSIVE"); console.log("locked"); setInterval(() => {}, 1000); // holds the lock until killed, however slow the machine`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    holder.stdout.on("data", (d: Buffer) => (out += d.toString()));
    try {
      await waitFor(() => out.includes("locked"), "the holder taking the lock");
      const r = s.orchard(["add", "feat-a"]);
      expect(r.code).toBe(1);
      expect(r.json.error.code).toBe("registry_locked");
      expect(git(s.primary, "worktree", "list").split("\n")).toHaveLength(1);
    } finally {
      holder.kill("SIGKILL");
    }
  });
});

describe("re-adding a handle (§3.2)", () => {
  it("without --pid keeps the recorded pid and start time of a live process", () => {
    const p = liveProcess();
    try {
      const first = s.orchard(["add", "keep-pid", "--owner", "a1", "--pid", String(p.pid)]);
      expect(first.code, first.stderr).toBe(0);
      const before = s.orchard(["status", first.json.handle]).json.worktree;
      expect(before.lock.owner).toMatchObject({ pid: p.pid });
      const again = s.orchard(["add", "keep-pid", "--owner", "a1"]);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.json.action).toBe("adopted");
      const after = s.orchard(["status", first.json.handle]).json.worktree;
      expect(after.lock.owner).toMatchObject({ pid: p.pid, startTime: before.lock.owner.startTime });
      expect(readFileSync(join(s.adminDir(first.json.path), "locked"), "utf8")).toContain(String(p.pid));
      expect(after.liveness.signals.map((x: { code: string }) => x.code)).toContain("pid_alive");
    } finally {
      p.stop();
    }
  });

  it("drops a recorded pid that has died (it would make the fresh lease look dead)", () => {
    const p = liveProcess();
    const first = s.orchard(["add", "drop-pid", "--owner", "a1", "--pid", String(p.pid)]);
    expect(first.code, first.stderr).toBe(0);
    p.stop();
    const pid = p.pid;
    return waitFor(() => pidState(pid) === "dead", "the process to exit").then(() => {
      const again = s.orchard(["add", "drop-pid", "--owner", "a1"]);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      const after = s.orchard(["status", first.json.handle]).json.worktree;
      expect(after.lock.owner?.pid ?? null).toBeNull();
      expect(after.liveness.state).toBe("live");
    });
  });
});
