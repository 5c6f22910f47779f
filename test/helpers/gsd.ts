// Side by side with GSD (issue 41): GSD's published module (get-shit-done-cc 1.42.3,
// bin/lib/worktree-safety.cjs and core.cjs's pruneOrphanedWorktrees) and `orchard-worktrees/gsd`
// (dist/gsd.cjs, the built adapter) run on twin scenarios — two copies of one scenario built the
// same way in real git — and what each returned and left behind is compared. GSD's reaper (its
// PR 3707) is on GSD's main, not in any published version: with GSD_MAIN_LIB naming a directory
// holding that worktree-safety.cjs (and the shell-command-projection.cjs beside it), it runs for
// real; without it, the test holds GSD's result as that code decides it (its contract, checked
// against the real module whenever GSD_MAIN_LIB is set).
import { createRequire } from "node:module";
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, lstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { git, Scenario } from "./scenario.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
export const GSD_LIB = join(ROOT, "node_modules/get-shit-done-cc/get-shit-done/bin/lib");
export const ADAPTER = join(ROOT, "dist/gsd.cjs");

export type GsdModule = Record<string, (...args: any[]) => any>;
export const gsd = require(join(GSD_LIB, "worktree-safety.cjs")) as GsdModule;
export const gsdCore = require(join(GSD_LIB, "core.cjs")) as GsdModule;
export const adapter = require(ADAPTER) as GsdModule;
/** GSD main's module with the reaper, when GSD_MAIN_LIB names it (see the head of this file). */
export const gsdMain: GsdModule | null = process.env.GSD_MAIN_LIB ? (require(join(process.env.GSD_MAIN_LIB, "worktree-safety.cjs")) as GsdModule) : null;

/** Two scenarios built alike: one for GSD's module, one for Orchard's adapter. */
export function twins<T>(build: (s: Scenario) => T): { gsd: { s: Scenario; built: T }; orchard: { s: Scenario; built: T } } {
  const a = Scenario.create();
  const b = Scenario.create();
  return { gsd: { s: a, built: build(a) }, orchard: { s: b, built: build(b) } };
}

/** Text with the scenario's root replaced by `<root>`, so the twins' results compare. */
export function relative<T>(s: Scenario, value: T): T {
  return JSON.parse(JSON.stringify(value).split(s.root).join("<root>")) as T;
}

/** Work of the kinds a worktree can hold: an untracked file, a changed tracked file, unique ignored notes (GSD's .planning/). */
export type Work = "untracked" | "tracked" | "ignored";

export const WORK_FILE: Record<Work, string> = { untracked: "untracked-work.txt", tracked: "README.md", ignored: ".planning/notes.md" };

export function addWork(s: Scenario, path: string, work: Work): void {
  if (work === "ignored") {
    // an ignore rule of the repository (info/exclude: ignored in every worktree, as GSD's .planning/ is)
    const exclude = join(s.primary, ".git", "info", "exclude");
    mkdirSync(dirname(exclude), { recursive: true });
    writeFileSync(exclude, `${existsSync(exclude) ? readFileSync(exclude, "utf8") : ""}.planning/\n`);
    mkdirSync(join(path, ".planning"), { recursive: true });
    writeFileSync(join(path, WORK_FILE.ignored), "phase 3: the plan nobody else has\n");
  } else s.makeDirty(path, work === "tracked" ? { tracked: true } : { untracked: true });
}

/** Whether the work a scenario put in `path` is still there (a changed README counts only as changed). */
export function workKept(path: string, work: Work): boolean {
  const file = join(path, WORK_FILE[work]);
  if (!existsSync(file)) return false;
  return work !== "tracked" || readFileSync(file, "utf8") === "# changed\n";
}

export type Merged = "merge" | "squash" | "none";

/** A branch with one commit of its own in a foreign worktree, landed on main (and pushed) as asked. */
export function agentWorktree(s: Scenario, branch: string, merged: Merged): string {
  const path = s.worktree(branch);
  s.commit({ in: path, file: `${branch.replace(/\//g, "-")}.txt` });
  if (merged === "merge") s.mergeIntoMain(branch);
  if (merged === "squash") {
    git(s.primary, "merge", "-q", "--squash", branch);
    git(s.primary, "commit", "-q", "-m", `squash ${branch}`);
    git(s.primary, "push", "-q", "origin", "main");
  }
  return path;
}

/** A lock with `text`, older than any guard (GSD's and Orchard's default is 5 minutes). */
export function lockOld(s: Scenario, path: string, text: string): void {
  s.lockAs(path, text);
  s.ageLock(path, 3600);
}

export function branchExists(s: Scenario, branch: string): boolean {
  return git(s.primary, "branch", "--list", branch) !== "";
}

/** Registered worktrees of the twin, relative to its root. */
export function listed(s: Scenario): string[] {
  return git(s.primary, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((l) => l.startsWith("worktree "))
    .map((l) => l.slice("worktree ".length).replace(s.root, "<root>"));
}

/** A merge left in progress in the primary (GSD's failed merge is not aborted). */
export function midMerge(s: Scenario): boolean {
  return existsSync(join(s.primary, ".git", "MERGE_HEAD"));
}

/** Gives the scenario to `uid` (an EPERM run: the caller is another user than the live process's). */
export function giveTo(s: Scenario, uid: number): void {
  const walk = (path: string): void => {
    chownSync(path, uid, uid);
    if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(s.root);
  // the directories above it (the run's scratch directory) only need to be passable
  for (let dir = dirname(s.root); dir !== "/"; dir = dirname(dir)) chmodSync(dir, statSync(dir).mode | 0o001);
}

/** One row of the differences table of docs/gsd.md. */
export interface Row {
  scenario: string;
  gsd: string;
  orchard: string;
  why: string;
}

/** The table between `<!-- gsd:NAME -->` and `<!-- /gsd:NAME -->` in docs/gsd.md; GSD_WRITE_DOCS=1 writes it there. */
export function checkDocsTable(name: string, rows: Row[]): { expected: string; actual: string } {
  const file = join(ROOT, "docs/gsd.md");
  const table = [
    "| scenario | GSD | Orchard | why |",
    "| --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.scenario} | ${r.gsd} | ${r.orchard} | ${r.why} |`),
  ].join("\n");
  const text = readFileSync(file, "utf8");
  const open = `<!-- gsd:${name} -->\n`;
  const close = `\n<!-- /gsd:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  const actual = start >= 0 && end > start ? text.slice(start + open.length, end) : "";
  if (process.env.GSD_WRITE_DOCS === "1" && start >= 0 && end > start) writeFileSync(file, text.slice(0, start + open.length) + table + text.slice(end));
  return { expected: table, actual: process.env.GSD_WRITE_DOCS === "1" ? table : actual };
}
