// A minimal stand-in for test/helpers/postgres.ts (being written beside this work): the tests'
// PostgreSQL server (ORCHARD_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/test), a
// fresh schema per test reached through a registry URL whose `options` set the search_path.
// Without a server the tests that need one are skipped with one loud line, or fail when
// ORCHARD_TEST_REQUIRE_PG=1. Same names as the shared helper, so switching is one import.
import pg from "pg";
import { randomBytes } from "node:crypto";

export const PG_URL = process.env.ORCHARD_TEST_PG_URL || "postgres://postgres@127.0.0.1:5432/test";

async function admin<T>(fn: (client: pg.Client) => Promise<T>, url = PG_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000, application_name: "orchard-test-admin" });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function probe(): Promise<string | null> {
  try {
    await admin((c) => c.query("SELECT 1"));
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  }
}

const why = await probe();
if (why !== null) {
  if (process.env.ORCHARD_TEST_REQUIRE_PG === "1") throw new Error(`ORCHARD_TEST_REQUIRE_PG=1 but no PostgreSQL at ${PG_URL}: ${why}`);
  process.stderr.write(`\n!!! no PostgreSQL at ${new URL(PG_URL).host} (${why}): SKIPPING the PostgreSQL tests of this file !!!\n\n`);
}

/** True when no server answers (the PostgreSQL tests are skipped). */
export const pgMissing = why !== null;

export interface TestSchema {
  readonly name: string;
  /** The registry URL whose connections live in this schema. */
  readonly url: string;
  query<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh, empty schema (orchard_t_<random>); drop it when done. Without a server: a stub that is never used. */
export async function createSchema(): Promise<TestSchema> {
  const name = `orchard_t_${randomBytes(6).toString("hex")}`;
  if (pgMissing) return { name, url: "", query: async () => [], drop: async () => undefined };
  await admin((c) => c.query(`CREATE SCHEMA ${name}`));
  const parsed = new URL(PG_URL);
  parsed.searchParams.set("options", `-c search_path=${name}`);
  const url = parsed.toString();
  return {
    name,
    url,
    query: async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => (await admin((c) => c.query<T>(text, values), url)).rows,
    drop: async () => void (await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`))),
  };
}
