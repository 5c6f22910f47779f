// The words of a tree copy (bootstrap.share): the methods, the result, the options, and how a
// filesystem says it cannot clone. Shared by tree.ts (Node's own copy) and tree-cp.ts (one `cp`).
import type { Hash } from "node:crypto";

export type ShareMethod = "auto" | "clone" | "hardlink" | "copy";
/** The method a copy really used. */
export type UsedMethod = "clone" | "hardlink" | "copy";

export interface TreeCopy {
  method: UsedMethod;
  files: number;
}

/** errno codes with which a filesystem (or a cross-device pair) says it cannot clone. */
const CANNOT_CLONE = new Set(["ENOTSUP", "EOPNOTSUPP", "EXDEV", "EINVAL", "ENOSYS", "ENOTTY"]);

export class CloneUnsupported extends Error {
  constructor(readonly path: string) {
    super(`the filesystem of ${path} cannot clone files (reflink): use bootstrap.shareMethod "auto" or "copy"`);
  }
}

export function cannotClone(error: unknown): boolean {
  return CANNOT_CLONE.has((error as NodeJS.ErrnoException).code ?? "");
}

export interface CopyOptions {
  /** A fault point hit after the first file. */
  fault?: string;
  /** Awaited once the first file was cloned, before the others are (never when the filesystem cannot clone). */
  beforeClones?: () => Promise<void>;
  /** digest.ts's lines of the tree written into `hash` (in its order, after the copy): of the source's entries or the target's. */
  digest?: { hash: Hash; of: "source" | "target" };
}
