// The files git opens while it walks a worktree are input (SPEC v5 §4, issue 46 item 8): a FIFO an
// agent plants as a `.gitattributes`, a nested `.gitignore`, the file `core.excludesFile` or
// `core.attributesFile` names, or `info/exclude` would hold each status of that worktree until git's
// timeout. Each is found before the status: that worktree is unknown (`walk_file_special`, naming
// the file) and every other worktree is served at once. A SIGTERM to an Orchard whose git waits on
// such a file leaves no git behind.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario, scenarioWithTwo, type Added, git, makeFifo, waitFor } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { ADAPTER } from "../helpers/gsd.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let s: Scenario;
let a: Added;
let b: Added;
beforeEach(() => void ({ s, a, b } = scenarioWithTwo()));
afterEach(() => s.cleanup());

const byPath = (worktrees: { path: string }[], path: string) => worktrees.find((w) => w.path === path) as Record<string, any> | undefined;

/** hygiene and status answer; `unknown` names the file with walk_file_special; `served` are read as usual. */
function expectUnknown(fifo: string, unknown: string[], served: string[]): void {
  const h = s.orchard(["hygiene"]);
  expect(h.code, h.stderr).toBe(0);
  for (const path of unknown) {
    const row = byPath(h.json.worktrees, path)!;
    expect(row.disposition, path).toBe("unknown");
    expect(row.reasons).toEqual(expect.arrayContaining([expect.objectContaining({ code: "walk_file_special", file: fifo, kind: "a FIFO" })]));
  }
  for (const path of served) expect(byPath(h.json.worktrees, path)!.disposition, path).not.toBe("unknown");
  const plan = s.orchard(["cleanup", "plan"]);
  expect(plan.code, plan.stderr).toBe(0);
  for (const path of served) expect(s.orchard(["status", path]).json.worktree).toMatchObject({ dirty: expect.objectContaining({ tracked: 0 }) });
}

describe("a FIFO where git walks a worktree", () => {
  it("as the worktree's .gitattributes: that worktree is unknown naming it; the other is served", () => {
    const fifo = join(a.path, ".gitattributes");
    makeFifo(fifo);
    expectUnknown(fifo, [a.path], [b.path]);
    // the gsd facade's assessed inventory answers at once too, that worktree unknown (never "no findings" after a
    // timeout); its default inventory reads no status (GSD's own reads), so no walk file can stall it
    const call = `const r = m.snapshotWorktreeInventory(process.cwd(), { assess: true }); process.stdout.write(JSON.stringify(r.entries.map((e) => [e.path, e.disposition])))`;
    const r = spawnSync(process.execPath, ["-e", `const m = require(${JSON.stringify(ADAPTER)}); m.configure({ home: ${JSON.stringify(s.home)} }); ${call}`], {
      cwd: s.primary,
      env: hermeticEnv(),
      encoding: "utf8",
      timeout: PROCESS_TIMEOUT_MS,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expect.arrayContaining([[a.path, "unknown"]]));
    rmSync(fifo);
    const h = s.orchard(["hygiene"]);
    expect(byPath(h.json.worktrees, a.path)!.disposition).not.toBe("unknown");
  });

  it("as a nested .gitignore in a tracked directory, and in an untracked one at the top", () => {
    mkdirSync(join(a.path, "src", "deep"), { recursive: true });
    s.commit({ in: a.path, file: "src/deep/x.txt", content: "x\n" });
    const nested = join(a.path, "src", "deep", ".gitignore");
    makeFifo(nested);
    expectUnknown(nested, [a.path], [b.path]);
    rmSync(nested);
    mkdirSync(join(b.path, "scratch"));
    const untracked = join(b.path, "scratch", ".gitignore");
    makeFifo(untracked);
    expectUnknown(untracked, [b.path], [a.path]);
  });

  it("as core.excludesFile, core.attributesFile or info/exclude of the repository: every worktree is unknown naming it, at once", () => {
    for (const [key, fifo] of [
      ["core.excludesFile", join(s.root, "excludes.fifo")],
      ["core.attributesFile", join(s.root, "attributes.fifo")],
    ] as const) {
      makeFifo(fifo);
      s.git("config", key, fifo);
      expectUnknown(fifo, [a.path, b.path], []);
      s.git("config", "--unset", key);
    }
    const exclude = join(s.primary, ".git", "info", "exclude");
    rmSync(exclude, { force: true });
    mkdirSync(join(s.primary, ".git", "info"), { recursive: true });
    makeFifo(exclude);
    expectUnknown(exclude, [a.path, b.path], []);
  });

  it("as the core.excludesFile one worktree's config.worktree names: that worktree alone", () => {
    s.git("config", "extensions.worktreeConfig", "true");
    const fifo = join(s.root, "mine.fifo");
    makeFifo(fifo);
    git(a.path, "config", "--worktree", "core.excludesFile", fifo);
    expectUnknown(fifo, [a.path], [b.path]);
  });
});

describe("a SIGTERM to an Orchard whose git waits on a FIFO", () => {
  it("kills every git it started (their process groups) and exits 143", async () => {
    // a FIFO deeper than the vetting looks: git's status waits on it
    mkdirSync(join(a.path, "scratch", "deeper"), { recursive: true });
    makeFifo(join(a.path, "scratch", "deeper", ".gitignore"));
    const child = spawn(process.execPath, [CLI, "--home", s.home, "status", a.path, "--json"], { cwd: s.primary, env: hermeticEnv(), stdio: "ignore" });
    const gits = (): number[] => blockedGits(a.path);
    await waitFor(() => gits().length > 0, "a git blocked on the FIFO");
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal === "SIGTERM" ? 143 : null))));
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    await waitFor(() => gits().length === 0, "no git of that Orchard left");
  });
});

/** The pids of git processes whose working directory is `dir` (from /proc). */
function blockedGits(dir: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, "utf8").trim();
      if (comm === "git" && readlinkSync(`/proc/${entry}/cwd`) === dir) out.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}
