// Free space and its floor (`disk.minFree`, `cleanup run --until-free`; SPEC v4 §6). Free space is
// what an unprivileged process may still write on the workspace's filesystem (statfs f_bavail); a
// floor is a size or a percentage of the filesystem's size. What `cleanup run` would free is the
// measured `uniqueBytes` of the worktrees it removes by default (reclaimable, reapable, missing)
// plus the kept copies it reclaims.
import { statfsSync } from "node:fs";
import { parseFloor, type FreeFloor } from "../shared/config.js";
import { usageError } from "../shared/errors.js";
import type { Disposition, HygieneWorktree, KeptCopyView } from "./types.js";

export interface FreeSpace {
  free: number;
  total: number;
}

export function readFreeSpace(path: string): FreeSpace {
  const st = statfsSync(path);
  return { free: st.bavail * st.bsize, total: st.blocks * st.bsize };
}

export function floorBytes(floor: FreeFloor, total: number): number {
  return "bytes" in floor ? floor.bytes : Math.ceil((total * floor.percent) / 100);
}

/** A floor named on the command line (`--until-free`): its parse, or exit 2. */
export function requireFloor(text: string, flag: string): FreeFloor {
  const floor = parseFloor(text);
  if (!floor) throw usageError("invalid_argument", `${flag} ${JSON.stringify(text)} is not a size (10GiB, 500MB) or a percentage of the filesystem (5%)`);
  return floor;
}

/** The workspace's free space against `disk.minFree` of the config; null when no floor is set. */
export function assessFloor(home: string, minFree: string | undefined): { free: number; floor: number; below: boolean } | null {
  const parsed = minFree === undefined ? null : parseFloor(minFree);
  if (!parsed) return null;
  const space = readFreeSpace(home);
  const floor = floorBytes(parsed, space.total);
  return { free: space.free, floor, below: space.free < floor };
}

const REMOVED_BY_DEFAULT: readonly Disposition[] = ["reclaimable", "reapable", "missing"];

/**
 * What else holds space that the default `cleanup run` leaves: worktrees that need salvage (freed by
 * `cleanup run --include …,needs_salvage --salvage`, their work saved in salvage refs first) and the
 * kept copies still in use (freed by dropping bootstrap.share or lowering disk.shareBudget). Bytes
 * null when a member was not measured.
 */
export function alsoFree(fleet: { members: readonly { view: HygieneWorktree }[]; kept: readonly { view: KeptCopyView }[] }): {
  needsSalvage: { worktrees: number; bytes: number | null };
  keptCopies: { copies: number; bytes: number | null };
} {
  const sum = (views: readonly (HygieneWorktree | KeptCopyView)[]): number | null =>
    views.every((v) => v.disk) ? views.reduce((n, v) => n + (v.disk?.uniqueBytes ?? 0), 0) : null;
  const salvage = fleet.members.filter((m) => m.view.disposition === "needs_salvage").map((m) => m.view);
  const kept = fleet.kept.filter((k) => k.view.disposition !== "reclaimable").map((k) => k.view);
  return { needsSalvage: { worktrees: salvage.length, bytes: sum(salvage) }, keptCopies: { copies: kept.length, bytes: sum(kept) } };
}

/** What `cleanup run` (default --include) would free now, from a measured fleet; bytes null when a member was not measured. */
export function wouldFree(fleet: { members: readonly { view: HygieneWorktree }[]; kept: readonly { view: KeptCopyView }[] }): {
  worktrees: number;
  keptCopies: number;
  bytes: number | null;
} {
  const worktrees = fleet.members.filter((m) => REMOVED_BY_DEFAULT.includes(m.view.disposition)).map((m) => m.view);
  const kept = fleet.kept.filter((k) => k.view.disposition === "reclaimable").map((k) => k.view);
  const all = [...worktrees, ...kept];
  const bytes = all.every((v) => v.disk) ? all.reduce((n, v) => n + (v.disk?.uniqueBytes ?? 0), 0) : null;
  return { worktrees: worktrees.length, keptCopies: kept.length, bytes };
}
