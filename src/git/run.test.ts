import { describe, expect, it } from "vitest";
import { chmodSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropEarly, earlyPending, git, runProcess, startEarly, startEarlyBatch } from "./run.js";
import { hardenedEnv } from "./env.js";
import { GitError } from "./errors.js";
import { waitFor } from "../../test/helpers/scenario.js";
import { alive } from "../../test/helpers/scratch.js";
import { PROCESS_TIMEOUT_MS } from "../../test/helpers/time.js";
import { batchAnsweredAsAlone, MIXED_QUERIES } from "../../test/helpers/batch.js";

describe("the git runner", () => {
  it("answers a query started early once, with what git said then; dropped, git is asked anew", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-run-"));
    await git(["init", "-q", "-b", "main", dir], { cwd: dir, read: false });
    const head = ["symbolic-ref", "HEAD"];
    await startEarly(head, dir); // has run to its end (its answer stays to be taken)
    await git(["symbolic-ref", "HEAD", "refs/heads/other"], { cwd: dir, read: false });
    expect((await git(head, { cwd: dir })).stdout.trim()).toBe("refs/heads/main"); // the early answer
    expect((await git(head, { cwd: dir })).stdout.trim()).toBe("refs/heads/other"); // taken once
    await startEarly(head, dir);
    await startEarly(["symbolic-ref", "--short", "HEAD"], dir);
    await git(["symbolic-ref", "HEAD", "refs/heads/third"], { cwd: dir, read: false });
    expect((await git(head, { cwd: dir, ok: [0, 1] })).stdout.trim()).toBe("refs/heads/other"); // declared exit codes are no option of the process: still the early one
    expect(earlyPending(["symbolic-ref", "--short", "HEAD"], dir)).toBe(true);
    expect(earlyPending(head, dir)).toBe(false); // taken
    dropEarly();
    expect(earlyPending(["symbolic-ref", "--short", "HEAD"], dir)).toBe(false);
    expect((await git(["symbolic-ref", "--short", "HEAD"], { cwd: dir })).stdout.trim()).toBe("third");
  });

  it("returns one result shape and treats declared exit codes as answers", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-run-"));
    await git(["init", "-q", dir], { cwd: dir, read: false });
    const r = await git(["rev-parse", "--verify", "--quiet", "nope"], { cwd: dir, ok: [0, 1] });
    expect(r).toMatchObject({ args: ["rev-parse", "--verify", "--quiet", "nope"], cwd: dir, exitCode: 1, signal: null, timedOut: false });
    expect(typeof r.durationMs).toBe("number");
    await expect(git(["rev-parse", "--verify", "nope"], { cwd: dir })).rejects.toBeInstanceOf(GitError);
  });

  it("kills the whole process group on timeout", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-run-"));
    const pidFile = join(dir, "grandchild.pid");
    // Sleeps longer than any test may run: returning at all proves the group was killed, however
    // slow the machine; no bound on how quickly.
    const sleep = `sleep ${Math.ceil((2 * PROCESS_TIMEOUT_MS) / 1000)}`;
    const r = await runProcess("sh", ["-c", `sh -c 'echo $$ > ${pidFile}; exec ${sleep}' & ${sleep}`], { cwd: dir, env: process.env, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    await waitFor(() => !alive(grandchild), "the grandchild dying with its group");
  });

  it("kills what it still runs when it exits: a git waiting for ever does not outlive the process", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-run-"));
    const pidFile = join(dir, "waiting.pid");
    // a child node that starts a process waiting for ever through the one runner, then exits without waiting for it
    const script = [
      `import { runProcess } from ${JSON.stringify(fileURLToPath(new URL("../../dist/git/run.js", import.meta.url)))};`,
      `void runProcess("sh", ["-c", "echo $$ > ${pidFile}; exec sleep ${Math.ceil((2 * PROCESS_TIMEOUT_MS) / 1000)}"], { cwd: ${JSON.stringify(dir)}, env: process.env, timeoutMs: ${2 * PROCESS_TIMEOUT_MS} });`,
      `const until = Date.now() + ${PROCESS_TIMEOUT_MS}; const { existsSync } = await import("node:fs");`,
      `while (!existsSync(${JSON.stringify(pidFile)}) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));`,
      `process.exit(0);`,
    ].join("\n");
    const file = join(dir, "exit.mjs");
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, [file], { encoding: "utf8", timeout: PROCESS_TIMEOUT_MS });
    expect(r.status, r.stderr).toBe(0);
    const waiting = Number(readFileSync(pidFile, "utf8"));
    await waitFor(() => !alive(waiting), "the waiting process dying with its parent");
  });

  it("hardens the environment: no inherited repository overrides, no prompts, C locale", () => {
    process.env.GIT_DIR = "/somewhere/else";
    process.env.GIT_INDEX_FILE = "/tmp/index";
    try {
      const env = hardenedEnv({ read: true });
      expect(env.GIT_DIR).toBeUndefined();
      expect(env.GIT_INDEX_FILE).toBeUndefined();
      expect(env).toMatchObject({ GIT_TERMINAL_PROMPT: "0", GCM_INTERACTIVE: "never", LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" });
      expect(hardenedEnv({ read: false }).GIT_OPTIONAL_LOCKS).toBeUndefined();
    } finally {
      delete process.env.GIT_DIR;
      delete process.env.GIT_INDEX_FILE;
    }
  });

  it("traces every call to stderr with ORCHARD_TRACE=1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-run-"));
    const log = join(dir, "trace.txt");
    const script = `import("${join(process.cwd(), "dist/git/run.js")}").then(async (m) => { await m.git(["--version"], { cwd: "${dir}" }); })`;
    const r = await runProcess("sh", ["-c", `ORCHARD_TRACE=1 ${process.execPath} -e '${script}' 2> ${log}`], {
      cwd: dir,
      env: process.env,
      timeoutMs: PROCESS_TIMEOUT_MS,
    });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(log, "utf8")).toMatch(/^\[orchard trace\] git \["--version"\] cwd=.* -> 0 \d+ms from \+\d+ms$/m);
  });
});

describe("early queries through one shell", () => {
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const withPath = async <T>(path: string, fn: () => Promise<T>): Promise<T> => {
    const saved = process.env.PATH;
    process.env.PATH = path;
    try {
      return await fn();
    } finally {
      process.env.PATH = saved;
    }
  };

  it("answers each query as its own process would, and git() takes those answers", async () => {
    const { batch, dir } = await batchAnsweredAsAlone();
    const queries = MIXED_QUERIES;
    expect(batch[1]!.exitCode).toBe(1); // failures are answers too, with what git said
    expect(batch[3]!.exitCode).toBeGreaterThan(1);
    expect(batch[3]!.stderr).toMatch(/^fatal: /);
    expect(await git(queries[0]!, { cwd: dir })).toBe(batch[0]!);
    expect(await git(queries[2]!, { cwd: dir })).toBe(batch[2]!);
  });

  it("passes each argument as one word, and answers only once that process has exited", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-batch-"));
    // a git that names its pid, prints its arguments, closes its output, and lingers before it exits
    writeFileSync(join(dir, "git"), `#!/bin/sh\necho $$ > "${dir}/pid-$1"\nprintf '%s\\0' "$@"\nexec >&- 2>&-\nsleep 0.3\nexit 3\n`);
    chmodSync(join(dir, "git"), 0o755);
    const tricky = ["a", 'it\'s $HOME; `x` \\ "q" *', "two\nlines", "--", ""];
    const results = await withPath(`${dir}:${process.env.PATH}`, async () => Promise.all(startEarlyBatch([tricky, ["b"]], dir)));
    expect(results.map((r) => r.exitCode)).toEqual([3, 3]);
    expect(results[0]!.stdout).toBe(tricky.map((a) => `${a}\0`).join(""));
    for (const name of ["pid-a", "pid-b"]) {
      const pid = Number(readFileSync(join(dir, name), "utf8"));
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    }
    dropEarly();
  });

  it("starts each query on its own where no shell can start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-batch-"));
    symlinkSync(realGit, join(dir, "git")); // the only program on PATH: no sh
    const [version] = await withPath(dir, async () => Promise.all(startEarlyBatch([["--version"]], dir)));
    expect(version!.exitCode).toBe(0);
    expect(version!.stdout).toMatch(/^git version /);
    dropEarly();
  });
});
