// The two backends the registry suite runs against (SQLite, PostgreSQL), each able to make a
// fresh, empty registry for one test and to look at it with raw SQL from outside the registry
// (an admin connection, or a second SQLite handle), plus rows that exercise every column type.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Registry, type RegistryTarget } from "../../src/registry/index.js";
import type { NewWorktreeRow } from "../../src/registry/index.js";
import { openConnection } from "../../src/registry/sqlite-driver.js";
import { createSchema, pgAvailable, type TestSchema } from "./postgres.js";

export interface FreshRegistry {
  target: RegistryTarget;
  /** PostgreSQL: the test's own schema. */
  schema: TestSchema | null;
  /** Runs one statement from outside the registry; the rows it returns. */
  raw(text: string): Promise<Record<string, unknown>[]>;
  /** Opens a registry on the target, speaking for `host` (default HOST); closed by cleanup(). */
  open(host?: string): Promise<Registry>;
  cleanup(): Promise<void>;
}

export interface Backend {
  name: "sqlite" | "postgres";
  available: boolean;
  fresh(): Promise<FreshRegistry>;
}

/** Migration 2 needs the canonical-task rule from core; the suite's rows hold canonical tasks. */
export const HOOKS = { canonicalTask: (task: string) => task };

/** The host the suite's registries speak for, unless a test names another. */
export const HOST = "host-a";

function tracked(target: RegistryTarget, schema: TestSchema | null, raw: FreshRegistry["raw"], drop: () => Promise<void>): FreshRegistry {
  const opened: Registry[] = [];
  return {
    target,
    schema,
    raw,
    open: async (host = target.host) => {
      const registry = await Registry.open({ ...target, host }, HOOKS);
      opened.push(registry);
      return registry;
    },
    cleanup: async () => {
      for (const registry of opened.splice(0)) await registry.close();
      await drop();
    },
  };
}

const sqlite: Backend = {
  name: "sqlite",
  available: true,
  fresh: async () => {
    const home = mkdtempSync(join(tmpdir(), "orchard-registry-"));
    const raw = async (text: string) => {
      // a second handle through the driver the registry uses (ORCHARD_SQLITE_DRIVER, else Node's choice)
      const db = await openConnection(join(home, "orchard.db"), { busyTimeoutMs: 5_000 });
      try {
        const statement = db.prepare(text);
        if (/^\s*(SELECT|PRAGMA|WITH)\b/i.test(text)) return statement.all([]);
        statement.run([]);
        return [];
      } finally {
        db.close();
      }
    };
    return tracked({ home, url: null, host: HOST }, null, raw, async () => rmSync(home, { recursive: true, force: true }));
  },
};

const postgres: Backend = {
  name: "postgres",
  available: pgAvailable(),
  fresh: async () => {
    const home = mkdtempSync(join(tmpdir(), "orchard-registry-"));
    const schema = await createSchema();
    return tracked(
      { home, url: schema.url, host: HOST },
      schema,
      (text) => schema.query(text),
      async () => {
        await schema.drop();
        rmSync(home, { recursive: true, force: true });
      },
    );
  },
};

export const BACKENDS: readonly Backend[] = [sqlite, postgres];

/** The schema version the registry keeps, read from outside. */
export async function schemaVersion(backend: Backend, fresh: FreshRegistry): Promise<number[]> {
  const rows = await fresh.raw(backend.name === "sqlite" ? "SELECT user_version AS version FROM pragma_user_version" : "SELECT version FROM orchard_schema");
  return rows.map((r) => Number(r.version));
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const REPO = {
  identity: "github.com/acme/app",
  name: "app",
  primaryPath: "/src/app",
  commonDir: "/src/app/.git",
  createdAt: "2026-01-01T00:00:00.000Z",
};

/** A worktree row with every kind of value: booleans, nulls, numbers past 2^31. */
export function worktreeRow(handle: string, extra: Partial<NewWorktreeRow> = {}): NewWorktreeRow {
  return {
    repo: REPO.identity,
    handle,
    path: `/work/${handle}`,
    branch: `feat/${handle}`,
    createdBranch: true,
    baseRef: "origin/main",
    baseCommit: "0123456789abcdef0123456789abcdef01234567",
    task: "acme/app#42",
    taskRaw: "#42",
    owner: "claude",
    lastOwner: null,
    pid: 4_194_303,
    pidStart: "12345",
    host: HOST,
    heartbeatAt: "2026-01-01T00:00:00.000Z",
    ttlMs: 30 * DAY_MS,
    lifecycle: "active",
    outcome: null,
    fpBootstrap: null,
    fpContext: "ctx",
    fpRuntime: null,
    recycledFrom: null,
    supersededBy: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    releasedAt: null,
    lastActivityAt: "2026-01-01T00:00:00.000Z",
    ...extra,
  };
}
