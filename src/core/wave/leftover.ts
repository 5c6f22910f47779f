// What a wave leaves on disk and in the registry between runs. `git worktree remove` can fail
// half-way after git already dropped the worktree's entry (a file it could not delete): the
// directory stays behind as a husk. The wave records every removal in the registry (a `removed`
// event with `by: "cleanup-wave"`), so a rerun knows an unlisted directory at an entry's path is
// its own leftover (and not some other directory, e.g. `/etc`), and that an entry with neither a
// worktree nor a branch was really done rather than never there. A rerun finishes a leftover under
// the husk rules: every file in it must be byte-identical to the removed worktree's HEAD (so its
// content is in the merged commit); anything else is reported and kept.
import { mergeSubjects } from "./messages.js";
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { findFirstParentCommit, hashFiles, readTreeBlobs } from "../../git/read.js";
import { retireRow } from "../shared/rows.js";
import type { Ctx } from "../shared/context.js";
import type { WaveEntry } from "./manifest.js";
import { readPlainText } from "../shared/files.js";

export type RemovalStep = "removed" | "incomplete" | "done";

interface WaveRecord {
  path: string;
  branch: string;
  tip: string | null;
  step: RemovalStep;
}

/** Records a step of an entry: `removed`/`incomplete` when its worktree went, `done` when its branch went. */
export async function recordStep(ctx: Ctx, entry: WaveEntry, step: RemovalStep, tip: string | null, gitPath = entry.worktree_path): Promise<void> {
  const data = { by: "cleanup-wave", step, tip, agentId: entry.agent_id, manifestPath: entry.worktree_path };
  await ctx.registry.write(async () => {
    const row = step === "done" ? undefined : await ctx.registry.worktrees.atPath(ctx.repo.identity, gitPath);
    if (row) await retireRow(ctx, gitPath, data);
    else
      await ctx.registry.events.append({
        kind: "removed",
        repo: ctx.repo.identity,
        handle: null,
        task: null,
        owner: null,
        data: { path: gitPath, branch: entry.branch, ...data },
      });
  });
}

/** `done` records of many entries (their branches deleted) in one registry transaction. */
export async function recordDone(ctx: Ctx, done: readonly { entry: WaveEntry; tip: string }[]): Promise<void> {
  if (done.length === 0) return;
  await ctx.registry.write(async () => {
    for (const { entry, tip } of done)
      await ctx.registry.events.append({
        kind: "removed",
        repo: ctx.repo.identity,
        handle: null,
        task: null,
        owner: null,
        data: {
          path: entry.worktree_path,
          branch: entry.branch,
          by: "cleanup-wave",
          step: "done",
          tip,
          agentId: entry.agent_id,
          manifestPath: entry.worktree_path,
        },
      });
  });
}

async function records(ctx: Ctx, entry: WaveEntry): Promise<WaveRecord[]> {
  return (await ctx.registry.events.ofKind(ctx.repo.identity, "removed"))
    .map((e) => e.data)
    .filter((d) => d.by === "cleanup-wave" && d.branch === entry.branch && (d.manifestPath === entry.worktree_path || d.path === entry.worktree_path))
    .map((d) => ({ path: String(d.path), branch: entry.branch, tip: typeof d.tip === "string" ? d.tip : null, step: d.step as RemovalStep }));
}

/** The newest record says the entry's worktree removal left files behind: the tip its HEAD had. */
export async function incompleteRemoval(ctx: Ctx, entry: WaveEntry): Promise<{ tip: string | null } | null> {
  const latest = (await records(ctx, entry))[0]; // newest first
  return latest?.step === "incomplete" ? { tip: latest.tip } : null;
}

/** Evidence that an entry with no worktree and no branch was finished: a wave record, or the wave's merge commit on the target. */
export async function provenDone(ctx: Ctx, entry: WaveEntry, targetRef: string): Promise<boolean> {
  if ((await records(ctx, entry)).some((r) => r.step !== "incomplete")) return true;
  for (const subject of mergeSubjects(entry.branch, targetRef.replace(/^refs\/heads\//, "")))
    if ((await findFirstParentCommit(ctx.repo.primary, targetRef, subject)) !== null) return true;
  return false;
}

/** Files (and symbolic links) under a directory, relative, never following links; at most `limit`. */
export function listFiles(dir: string, limit = 10_000): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      out.push(relative(dir, d) || "."); // unreadable: reported as it is
      return;
    }
    for (const name of names.sort()) {
      if (out.length >= limit) return;
      const p = join(d, name);
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(p);
      else if (st) out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

/** Files of a leftover that are not byte-identical to the same path in `tip` (all of them when the tip is unknown). */
export async function uniqueLeftovers(ctx: Ctx, dir: string, tip: string | null): Promise<string[]> {
  const files = listFiles(dir);
  if (files.length === 0) return [];
  if (tip === null) return files;
  const blobs = await readTreeBlobs(ctx.repo.primary, tip);
  const regular = files.filter((f) => !f.includes("\n") && blobs.has(f) && lstatSync(join(dir, f), { throwIfNoEntry: false })?.isFile());
  const ids = await hashFiles(
    ctx.repo.primary,
    regular.map((f) => join(dir, f)),
  );
  const same = new Set(ids.length === regular.length ? regular.filter((f, i) => blobs.get(f) === ids[i]) : []);
  if (isStalePointer(ctx, join(dir, ".git"))) same.add(".git");
  return files.filter((f) => !same.has(f));
}

/** The removed worktree's own `.git` file (git deletes it in no fixed order): it points at an admin
 * dir of this repository that no longer exists, and holds nothing else. */
function isStalePointer(ctx: Ctx, file: string): boolean {
  if (!lstatSync(file, { throwIfNoEntry: false })?.isFile()) return false;
  const m = /^gitdir: (.+?)\r?\n?$/s.exec(readPlainText(file, 4096) ?? "");
  if (!m) return false;
  const admin = resolve(dirname(file), m[1] as string);
  return dirname(admin) === join(ctx.repo.commonDir, "worktrees") && !lstatSync(admin, { throwIfNoEntry: false });
}

/** Deletes a leftover directory (never following links); the files still there afterwards. */
export function removeLeftover(dir: string): string[] {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // what could not be deleted is listed below
  }
  return lstatSync(dir, { throwIfNoEntry: false }) ? listFiles(dir) : [];
}
