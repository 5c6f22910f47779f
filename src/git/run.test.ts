import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, runProcess } from "./run.js";
import { hardenedEnv } from "./env.js";
import { GitError } from "./errors.js";

describe("the git runner", () => {
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
    const started = Date.now();
    const r = await runProcess("sh", ["-c", `sh -c 'echo $$ > ${pidFile}; exec sleep 30' & sleep 30`], { cwd: dir, env: process.env, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    const alive = () => {
      try {
        process.kill(grandchild, 0);
        return true;
      } catch {
        return false; // ESRCH: gone
      }
    };
    const deadline = Date.now() + 5000;
    while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive()).toBe(false);
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
    const r = await runProcess("sh", ["-c", `ORCHARD_TRACE=1 ${process.execPath} -e '${script}' 2> ${log}`], { cwd: dir, env: process.env, timeoutMs: 20_000 });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(log, "utf8")).toMatch(/^\[orchard trace\] git \["--version"\] cwd=.* -> 0 \d+ms$/m);
  });
});
