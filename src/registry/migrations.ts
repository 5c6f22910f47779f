// Numbered schema migrations: index i upgrades user_version i → i+1. Append only; never edit one
// that has shipped. A migration is SQL, or a step over the rows that needs a rule of the domain:
// that rule is handed in by core when it opens the registry (MigrationHooks), because the
// registry never imports core.
import type Database from "better-sqlite3";

export interface MigrationHooks {
  /** SPEC §1 task: the canonical form of a task recorded for the repo with this identity. */
  canonicalTask(task: string, repoIdentity: string): string;
}

export type Migration = string | { needs: "hooks"; run: (db: Database.Database, hooks: MigrationHooks) => void };

const APPEND_ONLY_TRIGGERS = `
  CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
  CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;`;

/**
 * v2 forge-aware tasks: re-canonicalise every stored task (rows from their raw text, events from
 * the canonical text they hold), so rows and lineage recorded under the v1 rule join their groups.
 * The one sanctioned rewrite of events: the append-only trigger is lifted inside this transaction.
 */
function recanonicaliseTasks(db: Database.Database, hooks: MigrationHooks): void {
  const rows = db.prepare("SELECT id, repo, task, task_raw AS raw FROM worktrees WHERE task IS NOT NULL").all() as {
    id: number;
    repo: string;
    task: string;
    raw: string | null;
  }[];
  const setRow = db.prepare("UPDATE worktrees SET task = ? WHERE id = ?");
  for (const r of rows) setRow.run(hooks.canonicalTask(r.raw ?? r.task, r.repo), r.id);
  const events = db.prepare("SELECT id, repo, task FROM events WHERE task IS NOT NULL").all() as { id: number; repo: string; task: string }[];
  db.exec("DROP TRIGGER events_append_only_update; DROP TRIGGER events_append_only_delete;");
  const setEvent = db.prepare("UPDATE events SET task = ? WHERE id = ?");
  for (const e of events) setEvent.run(hooks.canonicalTask(e.task, e.repo), e.id);
  db.exec(APPEND_ONLY_TRIGGERS);
}

export const MIGRATIONS: readonly Migration[] = [
  `
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
  { needs: "hooks", run: recanonicaliseTasks },
];
