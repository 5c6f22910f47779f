// Numbered schema migrations, the same numbers in both dialects: entry i upgrades version i → i+1.
// Append only; never edit one that has shipped. A migration is SQL per dialect, or a step over the
// rows that needs a rule of the domain: that rule is handed in by core when it opens the registry
// (MigrationHooks), because the registry never imports core.
import { RegistryError } from "./errors.js";
import type { Dialect, Sql, Store } from "./sql.js";

export interface MigrationHooks {
  /** SPEC §1 task: the canonical form of a task recorded for the repo with this identity. */
  canonicalTask(task: string, repoIdentity: string): string;
}

type Migration = Record<Dialect, string> | { needs: "hooks"; run: (sql: Sql, hooks: MigrationHooks) => Promise<void> };

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

export const MIGRATIONS: readonly Migration[] = [
  {
    sqlite: `
  CREATE TABLE repos (
    identity     TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    primary_path TEXT NOT NULL,
    common_dir   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    seen_at      TEXT NOT NULL
  );
  CREATE TABLE worktrees (
    id              INTEGER PRIMARY KEY,
    repo            TEXT NOT NULL REFERENCES repos(identity),
    handle          TEXT NOT NULL,
    path            TEXT NOT NULL,
    branch          TEXT NOT NULL,
    created_branch  INTEGER NOT NULL DEFAULT 0,
    base_ref        TEXT,
    base_commit     TEXT,
    task            TEXT,
    task_raw        TEXT,
    owner           TEXT,
    pid             INTEGER,
    pid_start       TEXT,
    host            TEXT,
    heartbeat_at    TEXT,
    ttl_ms          INTEGER,
    lifecycle       TEXT NOT NULL CHECK (lifecycle IN ('creating','active','terminal','recycled','removed')),
    outcome         TEXT CHECK (outcome IN ('done','abandoned','failed')),
    fp_bootstrap    TEXT,
    fp_context      TEXT,
    fp_runtime      TEXT,
    recycled_from   INTEGER REFERENCES worktrees(id),
    superseded_by   INTEGER REFERENCES worktrees(id),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    released_at     TEXT,
    last_activity_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX worktrees_live_handle ON worktrees(handle) WHERE lifecycle IN ('creating','active','terminal');
  CREATE INDEX worktrees_repo ON worktrees(repo, lifecycle);
  CREATE INDEX worktrees_task ON worktrees(repo, task);
  CREATE INDEX worktrees_path ON worktrees(path);
  CREATE TABLE events (
    id      INTEGER PRIMARY KEY,
    at      TEXT NOT NULL,
    kind    TEXT NOT NULL,
    repo    TEXT NOT NULL,
    handle  TEXT,
    task    TEXT,
    owner   TEXT,
    data    TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX events_handle ON events(handle);
  CREATE INDEX events_task ON events(task);
  CREATE INDEX events_kind ON events(repo, kind);
  CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
  CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
  CREATE TABLE plans (
    id          TEXT PRIMARY KEY,
    created_at  TEXT NOT NULL,
    scope       TEXT NOT NULL,
    digest      TEXT NOT NULL,
    options     TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('planned','applying','completed','needs_resume')),
    skipped     TEXT NOT NULL DEFAULT '[]'
  );
  CREATE TABLE plan_items (
    plan_id       TEXT NOT NULL REFERENCES plans(id),
    seq           INTEGER NOT NULL,
    repo          TEXT,
    path          TEXT NOT NULL,
    handle        TEXT,
    action        TEXT NOT NULL,
    preconditions TEXT NOT NULL,
    reasons       TEXT NOT NULL,
    bytes         INTEGER,
    state         TEXT NOT NULL CHECK (state IN ('pending','applying','done','skipped','failed')),
    result        TEXT,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (plan_id, seq)
  );
  CREATE TABLE trust (
    repo        TEXT NOT NULL,
    config_hash TEXT NOT NULL,
    trusted_at  TEXT NOT NULL,
    PRIMARY KEY (repo, config_hash)
  );
  `,
    postgres: `
  CREATE TABLE repos (
    identity     TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    primary_path TEXT NOT NULL,
    common_dir   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    seen_at      TEXT NOT NULL
  );
  CREATE TABLE worktrees (
    id              BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    repo            TEXT NOT NULL REFERENCES repos(identity) DEFERRABLE,
    handle          TEXT NOT NULL,
    path            TEXT NOT NULL,
    branch          TEXT NOT NULL,
    created_branch  INTEGER NOT NULL DEFAULT 0,
    base_ref        TEXT,
    base_commit     TEXT,
    task            TEXT,
    task_raw        TEXT,
    owner           TEXT,
    pid             BIGINT,
    pid_start       TEXT,
    host            TEXT,
    heartbeat_at    TEXT,
    ttl_ms          BIGINT,
    lifecycle       TEXT NOT NULL CHECK (lifecycle IN ('creating','active','terminal','recycled','removed')),
    outcome         TEXT CHECK (outcome IN ('done','abandoned','failed')),
    fp_bootstrap    TEXT,
    fp_context      TEXT,
    fp_runtime      TEXT,
    recycled_from   BIGINT REFERENCES worktrees(id),
    superseded_by   BIGINT REFERENCES worktrees(id),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    released_at     TEXT,
    last_activity_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX worktrees_live_handle ON worktrees(handle) WHERE lifecycle IN ('creating','active','terminal');
  CREATE INDEX worktrees_repo ON worktrees(repo, lifecycle);
  CREATE INDEX worktrees_task ON worktrees(repo, task);
  CREATE INDEX worktrees_path ON worktrees(path);
  CREATE TABLE events (
    id      BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    at      TEXT NOT NULL,
    kind    TEXT NOT NULL,
    repo    TEXT NOT NULL,
    handle  TEXT,
    task    TEXT,
    owner   TEXT,
    data    TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX events_handle ON events(handle);
  CREATE INDEX events_task ON events(task);
  CREATE INDEX events_kind ON events(repo, kind);
  CREATE FUNCTION orchard_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'events are append-only'; END $$;
  CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events FOR EACH ROW EXECUTE FUNCTION orchard_events_append_only();
  CREATE TABLE plans (
    id          TEXT PRIMARY KEY,
    created_at  TEXT NOT NULL,
    scope       TEXT NOT NULL,
    digest      TEXT NOT NULL,
    options     TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('planned','applying','completed','needs_resume')),
    skipped     TEXT NOT NULL DEFAULT '[]'
  );
  CREATE TABLE plan_items (
    plan_id       TEXT NOT NULL REFERENCES plans(id),
    seq           INTEGER NOT NULL,
    repo          TEXT,
    path          TEXT NOT NULL,
    handle        TEXT,
    action        TEXT NOT NULL,
    preconditions TEXT NOT NULL,
    reasons       TEXT NOT NULL,
    bytes         BIGINT,
    state         TEXT NOT NULL CHECK (state IN ('pending','applying','done','skipped','failed')),
    result        TEXT,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (plan_id, seq)
  );
  CREATE TABLE trust (
    repo        TEXT NOT NULL,
    config_hash TEXT NOT NULL,
    trusted_at  TEXT NOT NULL,
    PRIMARY KEY (repo, config_hash)
  );
  `,
  },
  { needs: "hooks", run: recanonicaliseTasks },
];

/** How a dialect keeps its schema version. */
export interface VersionSlot {
  read(): Promise<number>;
  write(version: number): Promise<void>;
}

/**
 * Brings the schema up to date in one transaction that also reads the version (and, on PostgreSQL,
 * holds the migration lock), so two processes opening a fresh registry cannot both run a step.
 */
export async function migrate(store: Store, hooks: MigrationHooks | null, slot: VersionSlot): Promise<void> {
  await store.begin();
  try {
    await store.lock("orchard:migrate");
    const current = await slot.read();
    if (current > MIGRATIONS.length)
      throw new RegistryError("registry_failed", `the registry schema is version ${current}, newer than this orchard (${MIGRATIONS.length}); upgrade orchard`);
    for (let version = current; version < MIGRATIONS.length; version++) {
      const step = MIGRATIONS[version] as Migration;
      if (!("needs" in step)) await store.sql.exec(step[store.sql.dialect]);
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
