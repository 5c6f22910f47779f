// The registry as core/ sees it: typed tables behind one async object over either backend
// (SQLite, the embedded default; PostgreSQL, a fleet's shared registry), writes in transactions,
// and every driver failure turned into a RegistryError with a clear message.
//
// One connection per process. A transaction holds it from BEGIN to COMMIT: calls made inside
// `write` (found through AsyncLocalStorage, so table calls need no handle passed down) run in the
// transaction; every other call waits until it ends, so no statement of another task in this
// process can fall inside someone else's transaction. A transaction's mark closes when its body
// returns: a call that a continuation created inside it makes later waits like any other.
import { AsyncLocalStorage } from "node:async_hooks";
import * as repos from "./repos.js";
import * as worktrees from "./worktrees.js";
import * as events from "./events.js";
import * as trust from "./trust.js";
import * as plans from "./plans.js";
import * as summaries from "./summaries.js";
import * as transfer from "./transfer.js";
import type { MigrationHooks } from "./migrations.js";
import type { Dialect, Sql, Store } from "./sql.js";
import type { Snapshot } from "./sqlite.js";

type Tail<F> = F extends (sql: Sql, ...rest: infer R) => infer T ? (...rest: R) => T : never;
type Bound<M> = { [K in keyof M]: Tail<M[K]> };

/** Where the registry lives: a workspace's SQLite file, or a PostgreSQL URL. */
export interface RegistryTarget {
  home: string;
  url?: string | null;
  /** A SQLite registry file other than `<home>/orchard.db` (the copy `registry migrate` reads). */
  file?: string;
  /** The host this process speaks for (ORCHARD_HOST, default the hostname; core decides). */
  host: string;
}

export class Registry {
  readonly repos;
  readonly worktrees;
  readonly events;
  readonly trust;
  readonly plans;
  readonly summaries;
  readonly transfer;
  private readonly inside = new AsyncLocalStorage<{ open: boolean }>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly store: Store) {
    const bind = <M extends Record<string, (sql: Sql, ...rest: never[]) => Promise<unknown>>>(module: M): Bound<M> => {
      const bound: Record<string, unknown> = {};
      for (const [name, fn] of Object.entries(module))
        bound[name] = (...rest: unknown[]) => this.call(() => (fn as (sql: Sql, ...r: unknown[]) => Promise<unknown>)(this.store.sql, ...rest));
      return bound as Bound<M>;
    };
    this.repos = bind({
      load: repos.loadRepo,
      loadByName: repos.loadRepoByName,
      loadByCommonDir: repos.loadRepoByCommonDir,
      all: repos.loadRepos,
      save: repos.saveRepo,
      moveIdentity: repos.moveRepoIdentity,
    });
    this.worktrees = bind({
      byHandle: worktrees.loadByHandle,
      byId: worktrees.loadById,
      current: worktrees.loadCurrent,
      atPath: worktrees.loadAtPath,
      currentKeys: worktrees.loadCurrentKeys,
      fleet: worktrees.loadFleet,
      insert: worktrees.insertWorktree,
      update: worktrees.updateWorktree,
      delete: worktrees.deleteWorktree,
      creating: worktrees.loadCreating,
      holdCreation: worktrees.holdCreation,
      releaseCreation: worktrees.releaseCreation,
      creationsHeld: worktrees.creationsHeld,
    });
    this.events = bind({
      append: events.appendEvent,
      for: events.loadEventsFor,
      ofKind: events.loadEventsOfKind,
      count: events.countEventsOfKind,
      countByHost: events.countEventsByHost,
    });
    this.trust = bind({ has: trust.isTrusted, save: trust.saveTrust });
    this.plans = bind({
      insert: plans.insertPlan,
      load: plans.loadPlan,
      openIds: plans.loadOpenPlanIds,
      items: plans.loadPlanItems,
      itemsAt: plans.loadPlanItemsAt,
      setStatus: plans.setPlanStatus,
      transition: plans.transitionItem,
      noteResult: plans.noteItemResult,
    });
    this.summaries = bind({ publish: summaries.publishSummary, load: summaries.loadSummaries });
    this.transfer = bind({ dump: transfer.dumpRegistry, countHostRows: transfer.countHostRows, load: transfer.loadDump });
  }

  /**
   * Opens the registry: PostgreSQL when a URL is given, else `<home>/orchard.db`. `hooks` lend
   * the migrations the rules of the domain they need (see migrations.ts).
   */
  static async open(target: RegistryTarget, hooks: MigrationHooks | null = null): Promise<Registry> {
    if (target.url) {
      const { openPostgres } = await import("./postgres.js");
      return new Registry(await openPostgres(target.url, target.host, hooks));
    }
    const { openSqlite, openSqliteFile } = await import("./sqlite.js");
    if (target.file) return new Registry(await openSqliteFile(target.file, target.host, hooks));
    return new Registry(await openSqlite(target.home, target.host, hooks));
  }

  /** Copies a SQLite registry file to `dest` as one snapshot, reading the source only (see sqlite.ts). */
  static async snapshot(source: string, dest: string): Promise<Snapshot> {
    const { snapshotSqliteFile } = await import("./sqlite.js");
    return snapshotSqliteFile(source, dest);
  }

  /** The host this registry speaks for. */
  get host(): string {
    return this.store.sql.host;
  }

  /**
   * An empty registry in memory, for commands that go on from this host's own git facts when the
   * fleet's registry is out of reach (nothing written to it is kept).
   */
  static async detached(host: string, hooks: MigrationHooks | null = null): Promise<Registry> {
    const { openSqliteFile } = await import("./sqlite.js");
    const registry = new Registry(await openSqliteFile(":memory:", host, hooks));
    registry.isDetached = true;
    return registry;
  }

  /** True for the in-memory stand-in of an unreachable registry. */
  isDetached = false;

  get dialect(): Dialect {
    return this.store.sql.dialect;
  }

  /** The file or URL (password hidden) the registry lives at. */
  get location(): string {
    return this.store.location;
  }

  /**
   * Runs `fn` in one transaction (IMMEDIATE on SQLite). `lock` names a key held until the end of
   * the transaction (a transaction-scoped advisory lock on PostgreSQL), so deciding from what was
   * read and writing the decision are one step for every process of the fleet. A write inside a
   * write joins the outer transaction.
   */
  async write<T>(fn: () => Promise<T> | T, options: { lock?: string } = {}): Promise<T> {
    if (this.joined()) return fn();
    return this.exclusive(() => {
      const transaction = { open: true };
      return this.inside.run(transaction, async () => {
        await this.store.begin();
        try {
          if (options.lock) await this.store.lock(options.lock);
          const result = await fn();
          transaction.open = false;
          await this.store.commit();
          return result;
        } catch (error) {
          transaction.open = false;
          await this.store.rollback().catch(() => undefined); // the error that ended it is what the caller needs
          throw error;
        }
      });
    });
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.store.close();
  }

  private call<T>(fn: () => Promise<T>): Promise<T> {
    return this.joined() ? this.guard(fn) : this.exclusive(fn);
  }

  /** Whether the caller runs inside a transaction of this registry that is still open. */
  private joined(): boolean {
    return this.inside.getStore()?.open === true;
  }

  /** Runs `fn` once every earlier call or transaction of this process has ended. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.guard(fn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.store.failure(error);
    }
  }
}
