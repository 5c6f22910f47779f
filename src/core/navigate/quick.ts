// The everyday lookups at a node start (SPEC v5 §3 everyday verbs cost one worktree): `orchard
// path` (so `orchard cd`) and the handles a TAB completes, answered from the registry alone. The
// repository is found as git finds it from the directory (programs/policy.ts commonDirOf: its
// `.git`, no process) and must be one this host recorded at that common dir; the registry is read
// read-only (registry/peek.ts), or, while the registry's files are unchanged, from the navigation
// snapshot a read of it left in the workspace's cache (registry/peek-snapshot.ts): then not even
// the SQLite driver loads. No git process runs, nothing is assessed, and nothing is written but
// that snapshot.
//
// Each answer is the one the full path (path.ts through Orchard.open) gives, or null: whatever
// this module cannot settle from the registry (no row, a path git may list without one, an
// identity file to recover, a `creating` row to settle, a directory that is gone, another
// registry, a workspace the full path refuses) is left to the full path, which lists the worktrees
// and reports as every command does.
import { existsSync, realpathSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { commonDirOf } from "../../git/programs/policy.js";
import { navigation, type Navigation, type NavRepo, type NavRow } from "../../registry/peek.js";
import type { RepoRow } from "../../registry/index.js";
import { canonicalTask } from "../shared/naming/task.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { defaultHome, requireHomeOutsideRepos } from "../workspace/index.js";
import type { PathResult } from "./path.js";
import { pathFields, RANK, type PathFields } from "./fields.js";

export interface QuickOptions {
  home?: string | undefined;
  repo?: string | undefined;
}

// the host a registry row belongs to, as core/ownership's HOST reads it (not imported: that module
// loads the process readers, which a lookup never needs)
const host = (): string => process.env.ORCHARD_HOST?.trim() || hostname();

/** Control or bidirectional-override characters, or a replacement character: input the full path vets (and refuses). */
const UNVETTED = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\ufffd]/;

const tracing = (): boolean => process.env.ORCHARD_TRACE === "1";

/** ORCHARD_TRACE=1: why the full path answers instead. */
function leave(why: string): null {
  if (tracing()) process.stderr.write(`[orchard trace] quick: ${why}; the full command line answers\n`);
  return null;
}

/** ORCHARD_TRACE=1: where an answer came from (the snapshot, or the registry and why not the snapshot). */
function answered<T>(nav: Navigation, answer: T): T {
  if (tracing())
    process.stderr.write(
      nav.source === "snapshot" ? "[orchard trace] quick: answered from the snapshot\n" : `[orchard trace] quick: answered from the registry (${nav.note})\n`,
    );
  return answer;
}

async function open(options: QuickOptions): Promise<{ nav: Navigation; found: NavRepo } | null> {
  if (process.env.ORCHARD_REGISTRY) return leave("ORCHARD_REGISTRY"); // a fleet's PostgreSQL registry
  const home = options.home ?? defaultHome();
  let real: string;
  try {
    requireHomeOutsideRepos(home, options.home !== undefined || Boolean(process.env.ORCHARD_HOME));
    real = realpathSync(resolve(home));
  } catch {
    return leave("the workspace"); // refused, or no workspace yet: the full path says so
  }
  const commonDir = commonDirOf(resolve(options.repo ?? process.cwd()));
  if (commonDir === null) return leave("no repository found");
  let nav: Navigation | null;
  try {
    nav = await navigation(real, host());
  } catch {
    nav = null; // unreadable: the full path reports it
  }
  if (!nav) return leave("the registry cannot be peeked");
  const found = nav.repoAt(commonDir);
  // a row left `creating` is settled by any command of this host (SPEC v3 §5): the full path does
  if (found && !found.rows.some((r) => r.lifecycle === "creating")) return { nav, found };
  return leave(`no repository recorded at ${commonDir}, or a row left creating`);
}

/**
 * `orchard path <target>` from the registry, or null (the full path answers). `json`: the answer
 * is printed whole, so the primary (no target, `^`), whose branch git knows, is the full path's.
 */
export async function quickPath(options: QuickOptions, target: string | undefined, json: boolean): Promise<PathResult | null> {
  if (target !== undefined && (!target || target.startsWith("-") || UNVETTED.test(target))) return null;
  const opened = await open(options);
  if (!opened) return null;
  const { nav, found } = opened;
  if (target === undefined || target === "^") return json || !existsSync(found.repo.primaryPath) ? null : answered(nav, primary(found.repo));
  let fields: PathFields | null;
  try {
    fields = lookup(found, target);
  } catch {
    return leave("the target could not be read");
  }
  return fields && existsSync(fields.path) ? answered(nav, { ok: true, ...fields }) : leave(fields ? "its directory is gone" : "no row");
}

function primary(repo: RepoRow): PathResult {
  return { ok: true, path: repo.primaryPath, handle: null, branch: null, task: null, via: "primary" };
}

function lookup({ repo, rows }: NavRepo, target: string): PathFields | null {
  // a handle is this host's one live row of it (the registry's unique index): one of this repo's, or not this repo's
  const row = target.includes("@") ? rows.find((r) => r.handle === target) : undefined;
  if (row) return pathFields(row, "target");
  const wanted = realOrAbsolute(target);
  const atPath = rows.find((r) => r.path === wanted);
  if (atPath) return pathFields(atPath, "target");
  if (existsSync(wanted)) return null; // a directory git may list without a row: the full path's
  const byBranch = rows.find((r) => r.branch === target && r.lifecycle !== "removed");
  if (byBranch) return pathFields(byBranch, "target");
  // a handle without a row may have an identity file to recover from: the full path's
  return target.includes("@") ? null : byTask(rows, repo, target);
}

function byTask(rows: readonly NavRow[], repo: RepoRow, text: string): PathFields | null {
  if (!text.trim()) return null;
  const task = canonicalTask(text, repo.identity);
  const here = host();
  const ordered = rows
    .filter((r) => r.task === task && (r.host === null || r.host === here) && r.lifecycle in RANK)
    .sort((a, b) => (RANK[a.lifecycle] ?? 9) - (RANK[b.lifecycle] ?? 9) || b.lastActivityAt.localeCompare(a.lastActivityAt));
  const [first, ...rest] = ordered;
  if (!first) return null;
  const others = rest.map((r) => r.handle);
  return { ...pathFields(first, "task"), task, ...(others.length > 0 ? { others } : {}) };
}

/** The handles `orchard __complete handles` offers: this host's current rows of the repo; null for the full path. */
export async function quickHandles(options: QuickOptions): Promise<string[] | null> {
  const opened = await open(options);
  if (!opened) return null;
  const { rows } = opened.found;
  return rows.length > 0 ? answered(opened.nav, rows.map((r) => r.handle).sort()) : leave("no row");
}
