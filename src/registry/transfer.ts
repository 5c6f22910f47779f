// Moving a registry into another (`orchard registry migrate`, SQLite → a fleet's PostgreSQL):
// every table read whole from the source, written into the destination inside one transaction the
// caller holds, with worktree ids remapped (recycled_from, superseded_by follow) and events
// appended in their source order keeping `at` and `host`. The destination must hold no row of the
// source's hosts yet: a second move of one host's rows would duplicate them.
import type { Sql } from "./sql.js";

type Raw = Record<string, unknown>;

/** Everything a registry holds, table by table, in a stable order (ids, then keys). */
export interface RegistryDump {
  repos: Raw[];
  primaries: Raw[];
  worktrees: Raw[];
  events: Raw[];
  plans: Raw[];
  planItems: Raw[];
  trust: Raw[];
  hostSummaries: Raw[];
}

export type TableCounts = Record<keyof RegistryDump, number>;

const TABLES: Record<keyof RegistryDump, { table: string; order: string }> = {
  repos: { table: "repos", order: "identity" },
  primaries: { table: "primaries", order: "identity, host" },
  worktrees: { table: "worktrees", order: "id" },
  events: { table: "events", order: "id" },
  plans: { table: "plans", order: "created_at, id" },
  planItems: { table: "plan_items", order: "plan_id, seq" },
  trust: { table: "trust", order: "repo, config_hash, host" },
  hostSummaries: { table: "host_summaries", order: "host, repo" },
};

const KEYS = Object.keys(TABLES) as (keyof RegistryDump)[];

export async function dumpRegistry(sql: Sql): Promise<RegistryDump> {
  const dump: Partial<RegistryDump> = {};
  for (const key of KEYS) dump[key] = await sql.all<Raw>(`SELECT * FROM ${TABLES[key].table} ORDER BY ${TABLES[key].order}`);
  return dump as RegistryDump;
}

export function countsOf(dump: RegistryDump): TableCounts {
  return Object.fromEntries(KEYS.map((key) => [key, dump[key].length])) as TableCounts;
}

/** The hosts whose rows a dump holds. */
export function hostsOf(dump: RegistryDump): string[] {
  const hosts = new Set<string>();
  for (const key of ["primaries", "worktrees", "events", "plans", "trust", "hostSummaries"] as const)
    for (const row of dump[key]) if (typeof row.host === "string") hosts.add(row.host);
  return [...hosts].sort();
}

const marks = (n: number): string => Array.from({ length: n }, () => "?").join(", ");

/** Rows of these hosts (plan items through their plan) and repos of these identities the registry holds now. */
export async function countHostRows(sql: Sql, hosts: readonly string[], identities: readonly string[]): Promise<TableCounts> {
  const count = async (text: string, values: readonly unknown[]): Promise<number> =>
    values.length === 0 ? 0 : Number((await sql.get<{ n: number | string }>(text, values))?.n ?? 0);
  const byHost = (table: string) => count(`SELECT count(*) AS n FROM ${table} WHERE host IN (${marks(hosts.length)})`, hosts);
  return {
    repos: await count(`SELECT count(*) AS n FROM repos WHERE identity IN (${marks(identities.length)})`, identities),
    primaries: await byHost("primaries"),
    worktrees: await byHost("worktrees"),
    events: await byHost("events"),
    plans: await byHost("plans"),
    planItems: await count(`SELECT count(*) AS n FROM plan_items WHERE plan_id IN (SELECT id FROM plans WHERE host IN (${marks(hosts.length)}))`, hosts),
    trust: await byHost("trust"),
    hostSummaries: await byHost("host_summaries"),
  };
}

async function insert(sql: Sql, table: string, rows: readonly Raw[], omit: readonly string[] = []): Promise<void> {
  const BATCH = 200;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const columns = Object.keys(batch[0] as Raw).filter((c) => !omit.includes(c));
    const values = batch.flatMap((row) => columns.map((c) => row[c] ?? null));
    await sql.run(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${batch.map(() => `(${marks(columns.length)})`).join(", ")}`, values);
  }
}

export interface RepoOutcome {
  identity: string;
  /** inserted: new to the destination; existing: another host had recorded it (its name is kept); renamed: its name was taken by another repo. */
  action: "inserted" | "existing" | "renamed";
  name: string;
}

export interface LoadHooks {
  /** The name a repo takes when its own is held by another identity (core's rule). */
  renameRepo(name: string, identity: string): string;
}

/**
 * Writes a dump into this registry. Callers run it inside one transaction, after checking that no
 * row of the dump's hosts is there yet. Events keep their order (new ids ascend as the old did).
 */
export async function loadDump(sql: Sql, dump: RegistryDump, hooks: LoadHooks): Promise<RepoOutcome[]> {
  const repos: RepoOutcome[] = [];
  for (const repo of dump.repos) {
    const identity = String(repo.identity);
    const name = String(repo.name);
    const known = await sql.get<{ name: string }>("SELECT name FROM repos WHERE identity = ?", [identity]);
    if (known) {
      repos.push({ identity, action: "existing", name: known.name });
      continue;
    }
    const taken = (await sql.get("SELECT 1 AS yes FROM repos WHERE name = ?", [name])) !== undefined;
    const final = taken ? hooks.renameRepo(name, identity) : name;
    await insert(sql, "repos", [{ ...repo, name: final }]);
    repos.push({ identity, action: taken ? "renamed" : "inserted", name: final });
  }
  await insert(sql, "primaries", dump.primaries);
  const ids = new Map<number, number>();
  for (const row of dump.worktrees) {
    const columns = Object.keys(row).filter((c) => c !== "id");
    const values = columns.map((c) => (c === "recycled_from" || c === "superseded_by" ? null : (row[c] ?? null)));
    const created = await sql.get<{ id: number | string }>(
      `INSERT INTO worktrees (${columns.join(", ")}) VALUES (${marks(columns.length)}) RETURNING id`,
      values,
    );
    ids.set(Number(row.id), Number(created?.id));
  }
  for (const row of dump.worktrees) {
    const link = (column: string): number | null => (row[column] === null || row[column] === undefined ? null : (ids.get(Number(row[column])) ?? null));
    const [from, by] = [link("recycled_from"), link("superseded_by")];
    if (from !== null || by !== null)
      await sql.run("UPDATE worktrees SET recycled_from = ?, superseded_by = ? WHERE id = ?", [from, by, ids.get(Number(row.id))]);
  }
  await insert(sql, "events", dump.events, ["id"]);
  await insert(sql, "plans", dump.plans);
  await insert(sql, "plan_items", dump.planItems);
  await insert(sql, "trust", dump.trust);
  await insert(sql, "host_summaries", dump.hostSummaries);
  return repos;
}
