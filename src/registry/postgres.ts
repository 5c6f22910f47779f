// The only code that talks to PostgreSQL: a fleet's shared registry (SPEC §5). One client per
// process; the same numbered migrations as SQLite, run under an advisory lock; transaction-scoped
// advisory locks for decisions several hosts may race on; a lost connection is a RegistryError
// (registry_unreachable), and whatever transaction it cut is rolled back by the server.
import pg from "pg";
import { RegistryError } from "./errors.js";
import { migrate, type MigrationHooks } from "./migrations.js";
import { numbered, type Sql, type Store } from "./sql.js";

export const CONNECT_TIMEOUT_MS = 5_000;

/** The URL without its password (in the userinfo or a `password`/`sslpassword` parameter), for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    for (const key of [...parsed.searchParams.keys()]) if (/password/i.test(key)) parsed.searchParams.set(key, "***");
    return parsed.toString();
  } catch {
    return "<unparseable registry URL>";
  }
}

// Connection classes of SQLSTATE (08), operator intervention (57P0x: the server or an admin ended
// the session), and Node's socket errors: the registry is out of reach, not wrong.
const UNREACHABLE = /^(08|57P0)/;
const SOCKET = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  const message = error instanceof Error ? error.message : "";
  return UNREACHABLE.test(code) || SOCKET.has(code) || /Connection terminated|not queryable|timeout expired/i.test(message);
}

function postgresFailure(error: unknown, location: string): unknown {
  if (error instanceof RegistryError) return error;
  if (isUnreachable(error))
    return new RegistryError(
      "registry_unreachable",
      `the registry ${location} is unreachable (${(error as Error).message}); the transaction in flight was rolled back`,
      {
        cause: error,
      },
    );
  if (error instanceof Error && "severity" in error)
    return new RegistryError("registry_failed", `the registry ${location} failed: ${error.message}`, { cause: error });
  return error;
}

// BIGINT and COUNT come back from the server as text; every such value Orchard stores fits a double.
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

class PostgresStore implements Store {
  readonly sql: Sql;
  private broken: unknown = null;
  constructor(
    private readonly client: pg.Client,
    readonly location: string,
    host: string,
  ) {
    const query = async <T>(text: string, values?: readonly unknown[]) => {
      if (this.broken) throw this.broken;
      return client.query(numbered(text), values as unknown[] | undefined) as unknown as Promise<pg.QueryResult & { rows: T[] }>;
    };
    this.sql = {
      dialect: "postgres",
      host,
      all: async <T>(text: string, values?: readonly unknown[]) => (await query<T>(text, values)).rows,
      get: async <T>(text: string, values?: readonly unknown[]) => (await query<T>(text, values)).rows[0],
      run: async (text: string, values?: readonly unknown[]) => (await query(text, values)).rowCount ?? 0,
      exec: async (text: string) => void (await client.query(text)),
    };
    client.on("error", (error) => {
      this.broken = error; // the server ended the session between statements: the next one fails
    });
  }
  async begin(): Promise<void> {
    await this.sql.exec("BEGIN");
  }
  async commit(): Promise<void> {
    await this.sql.exec("COMMIT");
  }
  async rollback(): Promise<void> {
    if (!this.broken) await this.sql.exec("ROLLBACK");
  }
  async lock(key: string): Promise<void> {
    await this.sql.get("SELECT pg_advisory_xact_lock(hashtextextended(?, 0)) AS locked", [key]);
  }
  failure(error: unknown): unknown {
    return postgresFailure(error, this.location);
  }
  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}

/** Connects to the fleet's registry and brings its schema up to date. */
export async function openPostgres(url: string, host: string, hooks: MigrationHooks | null): Promise<Store> {
  const location = redact(url);
  // keepAlive: a connection the network silently dropped fails instead of waiting forever
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, types, application_name: "orchard" });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw isUnreachable(error) || !(error instanceof RegistryError)
      ? new RegistryError("registry_unreachable", `the registry ${location} is unreachable (${(error as Error).message})`, { cause: error })
      : error;
  }
  const store = new PostgresStore(client, location, host);
  try {
    await migrate(store, hooks, {
      peek: async () => (await store.sql.get<{ version: number }>("SELECT version FROM orchard_schema"))?.version ?? null,
      read: async () => {
        await store.sql.exec("CREATE TABLE IF NOT EXISTS orchard_schema (version INTEGER NOT NULL)");
        const row = await store.sql.get<{ version: number }>("SELECT version FROM orchard_schema");
        return row?.version ?? 0;
      },
      write: async (version) => {
        await store.sql.run("DELETE FROM orchard_schema");
        await store.sql.run("INSERT INTO orchard_schema (version) VALUES (?)", [version]);
      },
    });
  } catch (error) {
    await store.close();
    throw postgresFailure(error, location);
  }
  return store;
}
