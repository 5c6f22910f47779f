// The registry as core/ sees it: typed tables behind one object, writes in transactions, and
// every SQLite failure turned into a RegistryError (locked, corrupt) with a clear message.
import { openDb, inTransaction, registryFailure, registryPath, type Db } from "./db.js";
import * as repos from "./repos.js";
import * as worktrees from "./worktrees.js";
import * as events from "./events.js";
import * as trust from "./trust.js";
import * as plans from "./plans.js";
import type { MigrationHooks } from "./migrations.js";

type Tail<F> = F extends (db: Db, ...rest: infer R) => infer T ? (...rest: R) => T : never;
type Bound<M> = { [K in keyof M]: Tail<M[K]> };

function bind<M extends Record<string, (db: Db, ...rest: never[]) => unknown>>(module: M, registry: Registry): Bound<M> {
  const bound: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(module))
    bound[name] = (...rest: unknown[]) => registry.guard(() => (fn as (db: Db, ...r: unknown[]) => unknown)(registry.db, ...rest));
  return bound as Bound<M>;
}

export class Registry {
  readonly repos;
  readonly worktrees;
  readonly events;
  readonly trust;
  readonly plans;
  private constructor(
    readonly db: Db,
    readonly home: string,
  ) {
    this.repos = bind(
      {
        load: repos.loadRepo,
        loadByName: repos.loadRepoByName,
        loadByCommonDir: repos.loadRepoByCommonDir,
        all: repos.loadRepos,
        save: repos.saveRepo,
        moveIdentity: repos.moveRepoIdentity,
      },
      this,
    );
    this.worktrees = bind(
      {
        byHandle: worktrees.loadByHandle,
        byId: worktrees.loadById,
        current: worktrees.loadCurrent,
        insert: worktrees.insertWorktree,
        update: worktrees.updateWorktree,
        delete: worktrees.deleteWorktree,
      },
      this,
    );
    this.events = bind({ append: events.appendEvent, for: events.loadEventsFor, ofKind: events.loadEventsOfKind, count: events.countEventsOfKind }, this);
    this.trust = bind({ has: trust.isTrusted, save: trust.saveTrust }, this);
    this.plans = bind(
      {
        insert: plans.insertPlan,
        load: plans.loadPlan,
        items: plans.loadPlanItems,
        setStatus: plans.setPlanStatus,
        transition: plans.transitionItem,
        noteResult: plans.noteItemResult,
      },
      this,
    );
  }

  /** `hooks` lend the migrations the rules of the domain they need (see migrations.ts). */
  static open(home: string, hooks: MigrationHooks | null = null): Registry {
    return new Registry(openDb(home, hooks), home);
  }

  /** Runs `fn` in one IMMEDIATE transaction. */
  write<T>(fn: () => T): T {
    return this.guard(() => inTransaction(this.db, fn));
  }

  guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof Error && "code" in error && typeof error.code === "string" && error.code.startsWith("SQLITE_"))
        throw registryFailure(error, registryPath(this.home));
      throw error;
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
