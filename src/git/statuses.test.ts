// readStatuses (a few shells run `git status` for many worktrees) answers what readStatus answers
// for each one: odd paths (spaces, a newline, non-ASCII), changes of every kind, and a worktree
// whose git fails — that one carries git's own error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hermeticEnv } from "../../test/helpers/env.js";
import { readStatus, readStatuses } from "./read.js";

let dir: string;
const repos: string[] = [];
const saved = { ...process.env };

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "orchard-statuses-")));
  Object.assign(process.env, hermeticEnv());
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });
  for (const [i, name] of ["plain", "with space", "new\nline", "ünïcode"].entries()) {
    const repo = join(dir, name);
    mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    writeFileSync(join(repo, ".gitignore"), "*.log\n");
    writeFileSync(join(repo, "a.txt"), "a\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "init");
    if (i >= 1) writeFileSync(join(repo, "a.txt"), "changed\n");
    if (i >= 2) writeFileSync(join(repo, "new file.txt"), "untracked\n");
    if (i >= 3) writeFileSync(join(repo, "debug.log"), "ignored\n");
    repos.push(repo);
  }
});

afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

/** readStatuses with ORCHARD_TRACE on, and the trace lines it wrote to stderr. */
async function tracedStatuses(dirs: string[], options: Parameters<typeof readStatuses>[1]) {
  const traced: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => (traced.push(String(chunk)), true)) as typeof process.stderr.write;
  process.env.ORCHARD_TRACE = "1";
  try {
    return { got: await readStatuses(dirs, options), traced };
  } finally {
    delete process.env.ORCHARD_TRACE;
    process.stderr.write = write;
  }
}

describe("readStatuses", () => {
  it("no longer wanted (aborted), answers an error for each worktree and reads none of them alone", async () => {
    const stop = new AbortController();
    stop.abort();
    const { got, traced } = await tracedStatuses(repos, { ignored: true, slices: 2, signal: stop.signal });
    expect(got).toHaveLength(repos.length);
    for (const status of got) expect(status).toBeInstanceOf(Error);
    expect(traced.filter((t) => t.startsWith("[orchard trace] git ")).length).toBe(0);
    for (const t of traced.filter((t) => t.startsWith("[orchard trace] sh "))) expect(t).toMatch(/-> timeout /);
  });

  it("answers as readStatus does for each worktree, in order, a failing one with git's error", async () => {
    const missing = join(dir, "not-a-repo");
    mkdirSync(missing);
    const all = [...repos, missing, ...repos];
    for (const slices of [1, 2, 3]) {
      const { got, traced } = await tracedStatuses(all, { ignored: true, slices });
      // `slices` shells at a time, each taking the next chunk (a few chunks each); git alone only for the worktree that failed
      const shells = traced.filter((t) => t.startsWith("[orchard trace] sh ")).length;
      expect(shells).toBeGreaterThanOrEqual(Math.min(slices, all.length));
      expect(shells).toBeLessThanOrEqual(slices * 4);
      expect(traced.filter((t) => t.startsWith("[orchard trace] git ")).length).toBe(1);
      expect(got).toHaveLength(all.length);
      for (const [i, path] of all.entries()) {
        if (path === missing) {
          expect(got[i]).toBeInstanceOf(Error);
          expect(String((got[i] as Error).message)).toMatch(/not a git repository/);
        } else expect([path, got[i]]).toEqual([path, await readStatus(path, { ignored: true })]);
      }
    }
  });

  it("looks at each worktree before its chunk's shell asks git: a planted FIFO is that worktree's error, the rest answer", async () => {
    const planted = join(dir, "planted");
    mkdirSync(planted);
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: planted });
    execFileSync("mkfifo", [join(planted, ".gitattributes")]);
    try {
      // the planted worktree in the middle of a later chunk: one slice, several chunks
      const all = [...repos, ...repos, planted, ...repos];
      const { got, traced } = await tracedStatuses(all, { ignored: true, slices: 1 });
      const shells = traced.filter((t) => t.startsWith("[orchard trace] sh "));
      expect(shells.length).toBeGreaterThan(1);
      for (const shell of shells) expect(shell).not.toContain(JSON.stringify(planted));
      expect(traced.filter((t) => t.startsWith("[orchard trace] git ")).length).toBe(0);
      for (const [i, path] of all.entries()) {
        if (path === planted) {
          expect(got[i]).toBeInstanceOf(Error);
          expect(String((got[i] as Error).message)).toContain(join(planted, ".gitattributes"));
        } else expect([path, got[i]]).toEqual([path, await readStatus(path, { ignored: true })]);
      }
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });
});
