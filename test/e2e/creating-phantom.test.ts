// A phantom `creating` row (issue 20 item 3, SPEC v3 §5): an add killed after it wrote its registry
// row `creating` (its PostgreSQL connection gone with it) leaves the row while git's side holds
// nothing of the worktree. Such a row is never a live holder — hygiene does not call it live, it
// does not hold its task (on this host or another) — and any command of its host drops it, not
// only an add of its handle. An add still creating (its creator alive) keeps holding its task.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { Scenario, git, gitResult, liveProcess, type CliResult } from "../helpers/scenario.js";
import { expectStillReachable, killedAt, reachableCommits } from "../helpers/crash.js";
import { createSchema, pgAvailable, type TestSchema } from "../helpers/postgres.js";

const TASK = "https://github.com/acme/app/issues/7";
const exclusive = (branch: string, owner: string): string[] => [
  "add",
  branch,
  "--task",
  TASK,
  "--owner",
  owner,
  "--policy",
  "exclusive-task",
  "--no-bootstrap",
];

interface Row {
  id: number;
  handle: string;
  lifecycle: string;
  host: string;
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe.skipIf(backend === "postgres" && !pgAvailable())(`a phantom creating row (${backend})`, () => {
    let s: Scenario;
    let schema: TestSchema | null = null;
    const stops: (() => void)[] = [];
    beforeEach(async () => {
      s = Scenario.create();
      schema = backend === "postgres" ? await createSchema() : null;
    });
    afterEach(async () => {
      while (stops.length) stops.pop()?.();
      await schema?.drop();
      s.cleanup();
    });

    const env = (host = "host-a"): Record<string, string> => ({ ORCHARD_HOST: host, ...(schema ? { ORCHARD_REGISTRY: schema.url } : {}) });
    const onA = (args: string[]): CliResult => s.orchard(args, { env: env() });
    const rows = async (): Promise<Row[]> => {
      const text = "SELECT id, handle, lifecycle, host FROM worktrees ORDER BY id";
      if (schema) return (await schema.query(text)).map((r) => ({ ...r, id: Number(r.id) }) as Row);
      const db = new Database(join(s.home, "orchard.db"), { readonly: true });
      try {
        return db.prepare(text).all() as Row[];
      } finally {
        db.close();
      }
    };
    /** Another live orchard (by its pid) holds the repo's mutation lock: no command may drop anything. */
    const holdMutationLock = (): (() => void) => {
      const holder = liveProcess();
      stops.push(holder.stop);
      const lock = join(s.primary, ".git", "orchard-mutation.lock");
      writeFileSync(lock, JSON.stringify({ pid: holder.pid, startTime: null, host: "host-a", at: new Date().toISOString() }));
      return () => rmSync(lock, { force: true });
    };

    it("is not live, holds no task, and the next command of its host (a read) drops it; nothing is lost", async () => {
      const before = reachableCommits(s);
      killedAt(s, "add.branch", exclusive("feat-x", "a1"), env());
      const [phantom] = await rows();
      expect(phantom).toMatchObject({ handle: "app@feat-x", lifecycle: "creating" });
      expect(git(s.primary, "worktree", "list", "--porcelain")).not.toContain("app@feat-x");

      // while another orchard holds the lock the phantom stays; hygiene shows it as what it is
      const unlock = holdMutationLock();
      const h = onA(["hygiene"]);
      expect(h.code, h.stdout + h.stderr).toBe(0);
      const entry = h.json.worktrees.find((w: { handle: string | null }) => w.handle === "app@feat-x");
      expect(entry, h.stdout).toBeDefined();
      expect(entry.disposition).toBe("unknown");
      expect(entry.reasons.map((r: { code: string }) => r.code)).toEqual(["creating_interrupted"]);
      expect(entry.liveness.state).not.toBe("live");
      expect((await rows()).map((r) => r.lifecycle)).toEqual(["creating"]);
      unlock();

      // any command of its host drops it: a plain read
      const l = onA(["list"]);
      expect(l.code, l.stdout + l.stderr).toBe(0);
      expect(await rows()).toEqual([]);
      expect(gitResult(s.primary, "rev-parse", "--verify", "-q", "refs/heads/feat-x").code).not.toBe(0); // the branch add made at the base, rolled back
      expectStillReachable(s, before);

      // the task is free: another owner is admitted exclusively
      const other = onA(exclusive("feat-y", "a2"));
      expect(other.code, other.stdout + other.stderr).toBe(0);
      expect(other.json.action).toBe("created");
    });

    it("does not hold its task for an add of another handle on its own host", async () => {
      killedAt(s, "add.row", exclusive("feat-x", "a1"), env());
      const other = onA(exclusive("feat-y", "a2"));
      expect(other.code, other.stdout + other.stderr).toBe(0);
      expect(other.json.action).toBe("created");
      expect((await rows()).map((r) => [r.handle, r.lifecycle])).toEqual([["app@feat-y", "active"]]);
    });

    it.skipIf(backend === "sqlite")("on another host: a phantom holds nothing; an add still creating (its session alive) holds its task", async () => {
      const root = join(s.root, "host-b");
      mkdirSync(root);
      git(root, "clone", "-q", s.origin, "app");
      const b = { primary: join(root, "app"), home: join(root, "home") };
      const onB = (args: string[]): CliResult => s.orchard(["--home", b.home, "--repo", b.primary, ...args], { cwd: b.primary, env: env("host-b") });

      killedAt(s, "add.branch", exclusive("feat-x", "a1"), env());
      const unlock = holdMutationLock(); // host-a runs nothing that could drop it
      const [phantom] = await rows();
      expect(phantom).toMatchObject({ lifecycle: "creating", host: "host-a" });

      // its creator's session is alive again (a stand-in holding the row's creation lock): the task is held
      const creator = new pg.Client({ connectionString: (schema as TestSchema).url });
      await creator.connect();
      try {
        await creator.query("SELECT pg_advisory_lock(hashtextextended(current_schema() || ':orchard-creating:' || $1, 0))", [String(phantom?.id)]);
        const held = onB(exclusive("feat-b", "b1"));
        expect(held.code, held.stdout + held.stderr).toBe(3);
        expect(held.json.reasons.map((r: { code: string }) => r.code)).toEqual(["task_held_elsewhere"]);
      } finally {
        await creator.end();
      }
      // the creator is gone: a phantom, which holds nothing
      const admitted = onB(exclusive("feat-b", "b1"));
      expect(admitted.code, admitted.stdout + admitted.stderr).toBe(0);
      expect(admitted.json.action).toBe("created");
      unlock();
    });
  });
}
