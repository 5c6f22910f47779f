// Disk accounting for hygiene --disk. A walk counts allocated blocks (st_blocks × 512, what `du`
// reports, directories included) and apparent bytes (st.size); a worktree's `disk.bytes` is the
// apparent size and `allocatedBytes` the blocks (SPEC v4 §6; types.ts DiskFacts). Invariants:
// - a walk never follows a symbolic link (lstat only) and never leaves the root's filesystem;
// - an inode is counted once per worktree (hard links), and `uniqueBytes` counts only inodes
//   whose every link lies inside that worktree — what removing it alone would free;
// - a directory that is itself another measured worktree is skipped, so nested worktrees are
//   not counted twice; the fleet total counts each inode once (inodes with several links are
//   tracked across walks by dev:ino; a single-link inode can only be met once);
// - the walk stops when the deadline passes: that worktree and the rest get `null`;
// - on a filesystem that can clone (reflinks), the blocks the kernel flags shared (FIEMAP, read by
//   one filefrag process per batch: src/git/filesystem/extents.ts) are never counted as freed by a removal, and
//   the fleet total counts each shared extent once; where they cannot be read, `reflinks` is
//   `unknown` and every view says so.
import { lstatSync, readdirSync, statfsSync } from "node:fs";
import { readSharing } from "../../git/filesystem/extents.js";
import { join } from "node:path";
import { BACKLOG, type DiskSummary, type HygieneWorktree } from "./types.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { DiskFacts } from "../shared/types.js";
import { formatDuration } from "../shared/input/duration.js";
import { formatBytes } from "../shared/format.js";
import { progressCounter } from "../shared/progress.js";

export interface DiskUsage {
  /** Allocated bytes (st_blocks × 512), as `du` counts. */
  bytes: number;
  uniqueBytes: number;
  /** Apparent bytes (st.size), as `du --apparent-size` counts. */
  apparentBytes: number;
}

interface Inode {
  size: number;
  apparent: number;
  nlink: number;
  links: number;
}

/** Allocated bytes of one lstat result (st_blocks × 512; `du`'s count). */
export const allocatedBytes = (st: { blocks: number }): number => st.blocks * 512;

export interface WalkResult extends DiskUsage {
  /** Some directory could not be read: the sizes are lower bounds. */
  partial: boolean;
  /** Bytes of single-link inodes (only ever met in this walk). */
  singleBytes: number;
  singleApparent: number;
  /** Inodes with more than one link, by dev:ino. */
  shared: Map<string, Inode>;
  /** `none`: the filesystem cannot clone; `read`: the kernel's shared flags were read; `unknown`: they could not be. */
  sharing: "none" | "read" | "unknown";
  /** Extents shared by reflink (single-link files), by dev:physical offset: their bytes. */
  extents: Map<string, number>;
}

const CHECK_EVERY = 2_000;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Walks `roots` (a worktree and its admin dir); null when the deadline passed first. */
export async function walkDisk(roots: readonly string[], options: { deadline: number; skip: ReadonlySet<string> }): Promise<WalkResult | null> {
  const inodes = new Map<string, Inode>();
  let partial = false;
  let seen = 0;
  // a file of one link lives only here: summed at once, no key (most of a checkout); directories and
  // files of several links go through the map, so each is counted once however often it is met
  let loneBytes = 0;
  let loneApparent = 0;
  const firstRoot = roots.find((r) => lstatSync(r, { throwIfNoEntry: false }));
  const clones = firstRoot !== undefined && reflinksAt(firstRoot) === "unknown";
  // files whose blocks a clone may share: asked of the kernel after the walk (a path with a newline cannot be: unknown)
  const asked: { path: string; dev: number; bytes: number }[] = [];
  let unasked = false;
  const count = (st: { dev: number; ino: number; size: number; blocks: number; nlink: number }, directory = false, path?: string): void => {
    if (!directory && st.nlink === 1) {
      loneBytes += allocatedBytes(st);
      loneApparent += st.size;
      if (clones && st.blocks > 0 && path !== undefined) {
        if (path.includes("\n")) unasked = true;
        else asked.push({ path, dev: st.dev, bytes: allocatedBytes(st) });
      }
      return;
    }
    const key = `${st.dev}:${st.ino}`;
    const known = inodes.get(key);
    if (known) known.links++;
    // a directory's nlink counts its subdirectories' `..`, not other places: it has one home
    else inodes.set(key, { size: allocatedBytes(st), apparent: st.size, nlink: directory ? 1 : st.nlink, links: 1 });
  };
  for (const root of roots) {
    const top = lstatSync(root, { throwIfNoEntry: false });
    if (!top) continue;
    if (!top.isDirectory()) {
      count(top);
      continue;
    }
    count(top, true);
    const stack = [root];
    while (stack.length) {
      const dir = stack.pop() as string;
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        partial = true; // unreadable directory: reported as a lower bound
        continue;
      }
      for (const name of names) {
        if (++seen % CHECK_EVERY === 0) {
          if (Date.now() > options.deadline) return null;
          await yieldToLoop();
        }
        const path = join(dir, name);
        let st: ReturnType<typeof lstatSync>;
        try {
          st = lstatSync(path, { throwIfNoEntry: false });
        } catch {
          partial = true; // e.g. ENAMETOOLONG deep in a 3,000-level tree: a lower bound, not a crash
          continue;
        }
        if (!st) continue; // vanished during the walk
        if (st.isDirectory()) {
          if (st.dev === top.dev && !options.skip.has(path)) {
            count(st, true);
            stack.push(path);
          }
        } else count(st, false, st.isFile() ? path : undefined);
      }
    }
  }
  if (Date.now() > options.deadline) return null;
  const extents = new Map<string, number>();
  let sharing: WalkResult["sharing"] = clones ? "read" : "none";
  let loneShared = 0;
  if (clones && asked.length > 0) {
    const read = await readSharing(
      asked.map((a) => a.path),
      options.deadline,
    );
    if (read === null && Date.now() > options.deadline) return null;
    for (const a of asked) {
      const found = read?.get(a.path);
      if (!found) {
        sharing = "unknown";
        continue;
      }
      loneShared += Math.min(found.sharedBytes, a.bytes);
      for (const e of found.shared) extents.set(`${a.dev}:${e.physical}`, Math.max(e.length, extents.get(`${a.dev}:${e.physical}`) ?? 0));
    }
  }
  if (unasked) sharing = "unknown";
  // a shared block is freed by no single removal: never in uniqueBytes; in the fleet's total once, by extent
  const result: WalkResult = {
    bytes: loneBytes,
    uniqueBytes: loneBytes - loneShared,
    apparentBytes: loneApparent,
    singleBytes: loneBytes - loneShared,
    singleApparent: loneApparent,
    partial,
    shared: new Map(),
    sharing,
    extents,
  };
  for (const [key, inode] of inodes) {
    result.bytes += inode.size;
    result.apparentBytes += inode.apparent;
    if (inode.links >= inode.nlink) result.uniqueBytes += inode.size;
    if (inode.nlink > 1) result.shared.set(key, inode);
    else {
      result.singleBytes += inode.size;
      result.singleApparent += inode.apparent;
    }
  }
  return result;
}

/** Fleet totals across walks: each inode once; what removing every backlog worktree frees. */
export class DiskLedger {
  private single = 0;
  private singleApparent = 0;
  private backlogSingle = 0;
  private readonly shared = new Map<string, Inode & { backlogLinks: number }>();
  private readonly extents = new Map<string, number>();

  add(walk: WalkResult, inBacklog: boolean): void {
    this.single += walk.singleBytes;
    for (const [key, length] of walk.extents) this.extents.set(key, Math.max(length, this.extents.get(key) ?? 0));
    this.singleApparent += walk.singleApparent;
    if (inBacklog) this.backlogSingle += walk.singleBytes;
    for (const [key, inode] of walk.shared) {
      const known = this.shared.get(key) ?? { ...inode, links: 0, backlogLinks: 0 };
      known.links += inode.links;
      if (inBacklog) known.backlogLinks += inode.links;
      this.shared.set(key, known);
    }
  }

  /** `bytes` allocated here (the walk's unit); measureFleet reports them as `allocatedBytes`. */
  totals(): { bytes: number; apparentBytes: number; backlogBytes: number } {
    let bytes = this.single + [...this.extents.values()].reduce((n, l) => n + l, 0);
    let apparentBytes = this.singleApparent;
    let backlogBytes = this.backlogSingle;
    for (const inode of this.shared.values()) {
      bytes += inode.size;
      apparentBytes += inode.apparent;
      if (inode.backlogLinks >= inode.nlink) backlogBytes += inode.size;
    }
    return { bytes, apparentBytes, backlogBytes };
  }
}

/** A kept copy of bootstrap.share to measure (hygiene/kept.ts): counted in the fleet's totals, each inode once. */
export interface KeptMeasure {
  view: { path: string; disposition: string; disk?: DiskFacts | null };
}

/** Measures kept copies alone (cleanup's share budget), without a deadline. */
export async function measureKept(kept: readonly KeptMeasure[]): Promise<void> {
  for (const k of kept) {
    const walk = await walkDisk([k.view.path], { deadline: Number.MAX_SAFE_INTEGER, skip: new Set() });
    k.view.disk = walk && diskFacts(walk);
  }
}

/**
 * Measures every worktree (and its admin dir) within the budget, backlog first: the bytes that
 * cleanup would free matter most. Sets `disk` on each view: a value, or null when not measured.
 */
export async function measureFleet(
  items: readonly { view: HygieneWorktree; admin: string | null }[],
  budgetMs: number,
  kept: readonly KeptMeasure[] = [],
): Promise<{ summary: DiskSummary; notes: Reason[] }> {
  const deadline = Date.now() + budgetMs;
  const skip = new Set(items.map((i) => i.view.path));
  const inBacklog = (i: { view: HygieneWorktree }): boolean => BACKLOG.includes(i.view.disposition);
  const ordered = [...items].sort((a, b) => Number(inBacklog(b)) - Number(inBacklog(a)) || a.view.path.localeCompare(b.view.path));
  const ledger = new DiskLedger();
  let measured = 0;
  let partial = 0;
  let outOfTime = false;
  const tick = progressCounter("measuring disk", ordered.length);
  for (const item of ordered) {
    tick(item.view);
    const walk = outOfTime ? null : await walkDisk(item.admin ? [item.view.path, item.admin] : [item.view.path], { deadline, skip });
    if (!walk) {
      outOfTime = true;
      item.view.disk = null;
      continue;
    }
    measured++;
    if (walk.partial) partial++;
    ledger.add(walk, inBacklog(item));
    item.view.disk = diskFacts(walk);
  }
  for (const k of kept) {
    const walk = outOfTime ? null : await walkDisk([k.view.path], { deadline, skip });
    if (walk) ledger.add(walk, k.view.disposition === "reclaimable");
    else outOfTime = true;
    k.view.disk = walk && diskFacts(walk);
  }
  const notes: Reason[] = [];
  const unmeasured = items.length - measured;
  if (unmeasured > 0) notes.push(reason("disk_budget_exceeded", { budget: formatDuration(budgetMs), measured, unmeasured }));
  if (partial > 0) notes.push(reason("disk_partial", { worktrees: partial }));
  const totals = ledger.totals();
  const summary: DiskSummary = {
    bytes: totals.apparentBytes,
    apparentBytes: totals.apparentBytes,
    allocatedBytes: totals.bytes,
    backlogBytes: totals.backlogBytes,
    measured,
    unmeasured,
    complete: unmeasured === 0 && partial === 0,
  };
  return { summary, notes };
}

/** Filesystems that cannot share extents between files (statfs f_type): ext2/3/4, tmpfs. */
const NO_REFLINKS = new Set([0xef53, 0x01021994]);

/** Whether files under `path` may share extents by reflink (then the kernel is asked which: walkDisk). */
export function reflinksAt(path: string): "none" | "unknown" {
  try {
    return NO_REFLINKS.has(statfsSync(path).type) ? "none" : "unknown";
  } catch {
    return "unknown"; // the filesystem cannot be asked: its sharing is unknown
  }
}

export function diskFacts(walk: WalkResult): DiskFacts {
  return {
    bytes: walk.apparentBytes,
    allocatedBytes: walk.bytes,
    uniqueBytes: walk.uniqueBytes,
    apparentBytes: walk.apparentBytes,
    reflinks: walk.sharing,
  };
}

/** The one disk line of the human view and the HTML: "N worktrees: X apparent, Y on disk, Z reclaimable now". */
export function diskSummaryLine(disk: DiskSummary, keptCopies: number): string {
  const kept = keptCopies > 0 ? ` and ${keptCopies} kept ${keptCopies === 1 ? "copy" : "copies"}` : "";
  const partial = disk.complete ? "" : ` (${disk.unmeasured} not measured)`;
  return `${disk.measured} worktrees${kept}: ${formatBytes(disk.apparentBytes)} apparent, ${formatBytes(disk.allocatedBytes)} on disk, ${formatBytes(disk.backlogBytes)} reclaimable now${partial}`;
}
