// What every table module talks to: a few async statements over one connection, written once
// with `?` placeholders; each dialect (SQLite, PostgreSQL) runs them its own way.

export type Dialect = "sqlite" | "postgres";

export interface Sql {
  readonly dialect: Dialect;
  /** The host this connection speaks for: what it writes carries it; what it acts on is its own. */
  readonly host: string;
  /** Every row the statement returns. */
  all<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

/** A connection as the registry drives it: statements, transactions, a lock, the end. */
export interface Store {
  readonly sql: Sql;
  /** Where the registry lives, for messages: a file path or a URL without its password. */
  readonly location: string;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Serialises transactions that name one key (across hosts on PostgreSQL); held until commit. */
  lock(key: string): Promise<void>;
  /** Turns a driver failure into a RegistryError, or returns what it was given. */
  failure(error: unknown): unknown;
  close(): Promise<void>;
}

/** `?` placeholders as PostgreSQL's `$1, $2, …` (no statement here holds a literal `?`). */
export function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}
