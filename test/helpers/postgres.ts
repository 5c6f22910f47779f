// The PostgreSQL server the tests use (SPEC §5: a fleet's shared registry). Its URL comes from
// ORCHARD_TEST_PG_URL; every test gets a schema of its own (created here, dropped after), reached
// through a registry URL whose `options` set the connection's search_path. Whether a server
// answers is checked once per run by test/setup/postgres.ts: without one, the PostgreSQL half of
// the suite is skipped with one loud line, or fails when ORCHARD_TEST_REQUIRE_PG=1 (CI).
import pg from "pg";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { WAIT_TIMEOUT_MS } from "./time.js";

export const PG_URL = process.env.ORCHARD_TEST_PG_URL || "postgres://postgres@127.0.0.1:5432/test";

/** CI's switch (.ci/run): a missing server fails the run instead of skipping the PostgreSQL half. */
export const PG_REQUIRED = process.env.ORCHARD_TEST_REQUIRE_PG === "1";

/** How long the reachability check waits for a server that does not answer at all. */
const PROBE_TIMEOUT_MS = 3_000;

/** Why no PostgreSQL server answers at `url`, or null when one does. */
export async function pgUnreachable(url = PG_URL): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on("error", () => undefined); // a failure after connecting is seen by the query below
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || String((error as { code?: unknown }).code) : String(error);
  } finally {
    await client.end().catch(() => undefined); // the probe's answer is already decided
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    /** null when PG_URL answered at the start of the run, else why not. */
    pgUnreachable: string | null;
  }
}

/** Whether this run has a PostgreSQL server (decided once, by the global setup). */
export function pgAvailable(): boolean {
  return inject("pgUnreachable") === null;
}

/** `url` with `schema` as the search_path of every connection made through it. */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}

/** Runs `fn` on a connection of its own to PG_URL (the admin's, never a registry's), then closes it. */
export async function admin<T>(fn: (client: pg.Client) => Promise<T>, url = PG_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: "orchard-test-admin" });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestSchema {
  readonly name: string;
  /** The registry URL whose connections live in this schema. */
  readonly url: string;
  /** Runs one statement inside the schema from an admin connection. */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** Ends every registry connection that holds a lock on `table` of this schema; how many. */
  cut(table: string): Promise<number>;
  drop(): Promise<void>;
}

const SCHEMA_PREFIX = "orchard_t_";
/** No test runs this long: a test schema older than this was left by a run that was killed. */
const STALE_SCHEMA_MS = 60 * 60 * 1000;

/**
 * Drops the test schemas that runs killed before their cleanup left behind (their names carry the
 * time they were made, orchard_t_<ms in base 36>_<random>); how many.
 */
export async function dropStaleSchemas(now = Date.now()): Promise<number> {
  return admin(async (c) => {
    const { rows } = await c.query<{ name: string }>("SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1)", [SCHEMA_PREFIX]);
    const stale = rows.map((r) => r.name).filter((name) => now - parseInt(name.slice(SCHEMA_PREFIX.length).split("_")[0] ?? "", 36) > STALE_SCHEMA_MS);
    for (const name of stale) await c.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    return stale.length;
  });
}

/** A fresh, empty schema on PG_URL; drop it when done. */
export async function createSchema(): Promise<TestSchema> {
  const name = `${SCHEMA_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await admin((c) => c.query(`CREATE SCHEMA ${name}`));
  const url = withSearchPath(PG_URL, name);
  return {
    name,
    url,
    query: async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => (await admin((c) => c.query<T>(text, values), url)).rows,
    cut: async (table) =>
      (
        await admin((c) =>
          c.query(
            `SELECT pg_terminate_backend(a.pid, ${TERMINATE_WAIT_MS}) FROM pg_stat_activity a
             WHERE a.application_name = 'orchard' AND a.pid IN (SELECT l.pid FROM pg_locks l WHERE l.relation = to_regclass($1))`,
            [`${name}.${table}`],
          ),
        )
      ).rowCount ?? 0,
    drop: async () => void (await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`))),
  };
}

// Advisory locks waited for by registry connections, on the key Store.lock takes for `$1`:
// hashtextextended(key, 0), which the server splits into classid (high half) and objid (low half).
const LOCK_WAITERS = `SELECT a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND NOT l.granted AND a.application_name = 'orchard'
    AND l.classid::bigint = (hashtextextended($1, 0) >> 32) & 4294967295
    AND l.objid::bigint = hashtextextended($1, 0) & 4294967295`;

/** How long pg_terminate_backend waits for the backend to be gone. */
const TERMINATE_WAIT_MS = 5_000;

/** Waits until some registry connection waits for the advisory lock `key`. */
export async function waitForLockWaiter(key: string): Promise<void> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  while ((await admin((c) => c.query(LOCK_WAITERS, [key]))).rows.length === 0) {
    if (Date.now() > deadline) throw new Error(`no registry connection waited for the lock ${key} within ${WAIT_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Ends every registry connection waiting for the advisory lock `key`; how many. */
export async function cutLockWaiters(key: string): Promise<number> {
  const ended = await admin((c) => c.query(`SELECT pg_terminate_backend(pid, ${TERMINATE_WAIT_MS}) FROM (${LOCK_WAITERS}) w`, [key]));
  return ended.rowCount ?? 0;
}
