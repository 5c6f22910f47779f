// A worktree's harness read at the moment of use: a destructive step re-checks it (cleanup's apply,
// a wave's or merge's removal), as the plan's facts may be old. Its branch from its admin dir's
// HEAD, whether Orchard manages it (a registry row of this workspace, or its identity file naming
// this workspace), then the shapes and markers as every reader reads them (read.ts).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readPlainText } from "../../git/input/plain-file.js";
import type { Registry } from "../../registry/index.js";
import type { RepoContext } from "../shared/repo/repo.js";
import { ownershipOf } from "../workspace/index.js";
import { harnessReader, readHarness } from "./read.js";
import { harnessHold, type HarnessHold } from "./verdict.js";

/** The reason that keeps the worktree at `path` (admin dir `admin`) for its harness now, or null. */
export async function harnessHoldAt(ctx: { repo: RepoContext; registry: Registry }, path: string, admin: string): Promise<HarnessHold | null> {
  const head = readPlainText(join(admin, "HEAD"), 4096)?.trim() ?? "";
  const branch = head.startsWith("ref: refs/heads/") ? head.slice("ref: refs/heads/".length) : null;
  const lock = readPlainText(join(admin, "locked"), 65_536)?.trim() ?? null;
  const row = await ctx.registry.worktrees.atPath(ctx.repo.identity, path);
  const managed = !!row || ownershipOf(ctx.repo, path, { admin, lockReason: lock }).kind === "ours";
  const shape = { path, branch, primary: ctx.repo.primary, commonDir: ctx.repo.commonDir, admin, missing: !existsSync(path), managed };
  return harnessHold(readHarness(shape, harnessReader(process.env, ctx.repo.workspace.home)));
}
