// Numbered schema migrations, the same numbers in both dialects: entry i upgrades version i → i+1.
// Append only; never edit one that has shipped. A migration is SQL per dialect, or a step over the
// rows that needs a rule of the domain: that rule is handed in by core when it opens the registry
// (MigrationHooks), because the registry never imports core.
import { RegistryError } from "./errors.js";
import type { Dialect, Sql, Store } from "./sql.js";
import { V1, V3, V3_FINISH } from "./schema.js";

export interface MigrationHooks {
  /** SPEC §1 task: the canonical form of a task recorded for the repo with this identity. */
  canonicalTask(task: string, repoIdentity: string): string;
}

type Migration =
  | Record<Dialect, string>
  | { needs: "hooks"; run: (sql: Sql, hooks: MigrationHooks) => Promise<void> }
  | { needs: "host"; run: (sql: Sql, host: string) => Promise<void> };

const TRIGGERS_OFF: Record<Dialect, string> = {
  sqlite: "DROP TRIGGER events_append_only_update; DROP TRIGGER events_append_only_delete;",
  postgres: "ALTER TABLE events DISABLE TRIGGER events_append_only;",
};
const TRIGGERS_ON: Record<Dialect, string> = {
  sqlite: `
  CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
  CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;`,
  postgres: "ALTER TABLE events ENABLE TRIGGER events_append_only;",
};

/**
 * v2 forge-aware tasks: re-canonicalise every stored task (rows from their raw text, events from
 * the canonical text they hold), so rows and lineage recorded under the v1 rule join their groups.
 * The one sanctioned rewrite of events: the append-only trigger is lifted inside this transaction.
 */
async function recanonicaliseTasks(sql: Sql, hooks: MigrationHooks): Promise<void> {
  const rows = await sql.all<{ id: number; repo: string; task: string; raw: string | null }>(
    "SELECT id, repo, task, task_raw AS raw FROM worktrees WHERE task IS NOT NULL",
  );
  for (const r of rows) await sql.run("UPDATE worktrees SET task = ? WHERE id = ?", [hooks.canonicalTask(r.raw ?? r.task, r.repo), r.id]);
  const events = await sql.all<{ id: number; repo: string; task: string }>("SELECT id, repo, task FROM events WHERE task IS NOT NULL");
  await sql.exec(TRIGGERS_OFF[sql.dialect]);
  for (const e of events) await sql.run("UPDATE events SET task = ? WHERE id = ?", [hooks.canonicalTask(e.task, e.repo), e.id]);
  await sql.exec(TRIGGERS_ON[sql.dialect]);
}

/** v4: the owner of a released lease stays visible (release ends the lease: `owner` is null, `last_owner` keeps who it was). */
const LAST_OWNER = "ALTER TABLE worktrees ADD COLUMN last_owner TEXT;";

export const MIGRATIONS: readonly Migration[] = [
  V1,
  { needs: "hooks", run: recanonicaliseTasks },
  { needs: "host", run: fleetHosts },
  { sqlite: LAST_OWNER, postgres: LAST_OWNER },
];

/**
 * v3 a fleet: rows recorded before hosts existed belong to the host that runs this migration (a
 * SQLite registry has only ever had one).
 */
async function fleetHosts(sql: Sql, host: string): Promise<void> {
  await sql.exec(V3[sql.dialect]);
  await sql.run("UPDATE worktrees SET host = ? WHERE host IS NULL", [host]);
  await sql.run("INSERT INTO primaries (identity, host, primary_path, common_dir, seen_at) SELECT identity, ?, primary_path, common_dir, seen_at FROM repos", [
    host,
  ]);
  await sql.run("INSERT INTO trust_v3 (repo, config_hash, host, trusted_at) SELECT repo, config_hash, ?, trusted_at FROM trust", [host]);
  await sql.run("UPDATE plans SET host = ?", [host]);
  await sql.exec(TRIGGERS_OFF[sql.dialect]);
  await sql.run("UPDATE events SET host = ? WHERE host IS NULL", [host]);
  await sql.exec(TRIGGERS_ON[sql.dialect]);
  await sql.exec(V3_FINISH);
}

/** How a dialect keeps its schema version. */
export interface VersionSlot {
  /** The version without taking any lock (null or a rejection: unknown; migrate decides under the lock). */
  peek?(): Promise<number | null>;
  read(): Promise<number>;
  write(version: number): Promise<void>;
}

/**
 * Brings the schema up to date in one transaction that also reads the version (and, on PostgreSQL,
 * holds the migration lock), so two processes opening a fresh registry cannot both run a step.
 */
export async function migrate(store: Store, hooks: MigrationHooks | null, slot: VersionSlot): Promise<void> {
  // the common case, a registry already current, takes no lock: opening never waits for a writer
  if ((await slot.peek?.().catch(() => null)) === MIGRATIONS.length) return;
  await store.begin();
  try {
    await store.lock("orchard:migrate");
    const current = await slot.read();
    if (current > MIGRATIONS.length)
      throw new RegistryError("registry_failed", `the registry schema is version ${current}, newer than this orchard (${MIGRATIONS.length}); upgrade orchard`);
    for (let version = current; version < MIGRATIONS.length; version++) {
      const step = MIGRATIONS[version] as Migration;
      if (!("needs" in step)) await store.sql.exec(step[store.sql.dialect]);
      else if (step.needs === "host") await step.run(store.sql, store.sql.host);
      else if (hooks) await step.run(store.sql, hooks);
      else
        throw new RegistryError(
          "registry_failed",
          `the registry needs migration ${version + 1}, which only orchard itself can run; run any orchard command first`,
        );
    }
    if (current < MIGRATIONS.length) await slot.write(MIGRATIONS.length);
    await store.commit();
  } catch (error) {
    await store.rollback().catch(() => undefined);
    throw error;
  }
}
