// Claude Code killed while its WorktreeCreate hook still runs (bootstrap can take minutes), run by
// the real Claude Code (SPEC v3 §3.1, issue 21 item 3): the hook identified the Claude process when
// it started, so the lease names that process and its start time from the first row on — never the
// subreaper the orphaned hook was reparented to — and is dead once Claude is. The hook's bootstrap
// dies with its Claude (issue 40 item 7: Ctrl-C during a slow bootstrap), and the same
// `claude --worktree <name>` started again at once takes the worktree back and finishes it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, waitFor } from "../helpers/scenario.js";
import { FakeMessagesApi } from "../helpers/fake-messages-api.js";
import { claudeBinary, orchardOnPath, startClaude, installInProject } from "../helpers/claude-code.js";
import { hermeticEnv } from "../helpers/env.js";

let s: Scenario;
let api: FakeMessagesApi | undefined;
/** Every subreaper a test started (each session has its own): each is killed after the test, or its loop outlives the suite. */
const reapers: ChildProcess[] = [];
let claudeHome: string;

beforeEach(async () => {
  s = Scenario.create();
  claudeHome = join(s.root, "claude-home");
  mkdirSync(claudeHome);
  // a slow bootstrap while `slow` exists: it says it started, then takes a minute (an `npm ci`)
  const started = join(s.root, "bootstrap-started");
  const slow = join(s.root, "slow");
  writeFileSync(
    join(s.primary, ".orchard.json"),
    JSON.stringify({
      bootstrap: { run: [`touch '${started}' && if [ -e '${slow}' ]; then sleep 60; fi && touch '${join(s.root, "bootstrap-finished")}'`] },
    }),
  );
  installInProject(s);
  api = await FakeMessagesApi.start(() => ({ text: "done" }));
});

afterEach(() => {
  api?.close();
  api = undefined;
  for (const reaper of reapers.splice(0)) if (reaper.exitCode === null && reaper.signalCode === null) reaper.kill("SIGKILL");
  s.cleanup();
});

const hasPython = spawnSync("python3", ["-c", "import ctypes"], { encoding: "utf8" }).status === 0;

/** A child subreaper (prctl PR_SET_CHILD_SUBREAPER) that starts Claude Code and prints both pids; orphans below it are reparented to it. */
function claudeUnderSubreaper(args: string[], env: Record<string, string>): Promise<{ reaper: number; claude: number }> {
  const program = [
    "import ctypes, os, subprocess, sys, time",
    "assert ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0",
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)",
    "print(os.getpid(), p.pid, flush=True)",
    "while True:",
    "  try: os.wait()", // reap what is reparented here, as a subreaper does
    "  except ChildProcessError: time.sleep(0.1)",
  ].join("\n");
  const reaper = spawn("python3", ["-c", program, claudeBinary(), ...args], {
    cwd: s.primary,
    env: hermeticEnv({
      HOME: claudeHome,
      ANTHROPIC_BASE_URL: (api as FakeMessagesApi).url,
      ANTHROPIC_API_KEY: "sk-ant-test-dummy",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_TMPDIR: join(claudeHome, "tmp"),
      ...env,
    }),
    stdio: ["ignore", "pipe", "ignore"],
  });
  reapers.push(reaper);
  return new Promise((resolve, reject) => {
    let out = ""; // the pids line may arrive in more than one chunk on a loaded machine
    reaper.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = out.split("\n")[0] as string;
      if (!out.includes("\n")) return;
      const [a, b] = line.trim().split(" ").map(Number);
      if (Number.isInteger(a) && Number.isInteger(b)) resolve({ reaper: a as number, claude: b as number });
      else reject(new Error(`the subreaper printed ${JSON.stringify(line)}, not two pids`));
    });
    reaper.once("exit", (code) => reject(new Error(`the subreaper exited ${code}`)));
  });
}

function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] as string;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
};

/** True while an orchard worktree-create of this scenario runs (the portable hook command names no home: its environment does). */
function orchardRunning(): boolean {
  return readdirSync("/proc").some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return cmd.includes("worktree-create") && readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`ORCHARD_HOME=${s.home}`);
    } catch {
      return false;
    }
  });
}

/** True while any process has its cwd inside `dir` (what makes a worktree live for Orchard). */
function inside(dir: string): boolean {
  return readdirSync("/proc").some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      return cwd === dir || cwd.startsWith(`${dir}/`);
    } catch {
      return false;
    }
  });
}

const managed = () => (s.orchard(["list"]).json.worktrees as any[]).filter((w) => w.managed);

/** Delays Orchard's WorktreeCreate hook while `gate` exists: the hook's shell says it started, then waits before orchard runs. */
function gateCreateHook(gate: string, started: string): void {
  const file = join(s.primary, ".claude", "settings.json");
  const settings = JSON.parse(readFileSync(file, "utf8"));
  const hook = settings.hooks.WorktreeCreate[0].hooks[0];
  hook.command = `if [ -e '${gate}' ]; then touch '${started}'; sleep 2; fi; ${hook.command as string}`;
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

describe("Claude Code killed during the WorktreeCreate hook", () => {
  it.runIf(process.platform === "linux")(
    `the lease names Claude (pid and start time) from the first row, never ${hasPython ? "the subreaper" : "init"}; dead once Claude is; the same name again is taken back`,
    async () => {
      mkdirSync(join(claudeHome, "tmp"), { recursive: true, mode: 0o700 });
      const gate = join(s.root, "gate");
      const hookStarted = join(s.root, "hook-started");
      gateCreateHook(gate, hookStarted);
      const env = { ORCHARD_TRUST: "1", ...orchardOnPath(s.root, s.home) };
      const session = async (name: string): Promise<{ claude: number; reaper: number | null; kill: () => void }> => {
        const args = ["--worktree", name, "-p", "hello"];
        if (hasPython) {
          const pids = await claudeUnderSubreaper(args, env);
          return { ...pids, kill: () => process.kill(pids.claude, "SIGKILL") };
        }
        const run = startClaude(args, { cwd: s.primary, home: claudeHome, apiUrl: (api as FakeMessagesApi).url, env });
        return { claude: run.pid, reaper: null, kill: run.kill };
      };

      // 1. killed while the hook bootstraps (Ctrl-C): the row written before the kill names Claude and its start time
      writeFileSync(join(s.root, "slow"), "");
      const first = await session("f1");
      const ticks = startTicks(first.claude);
      await waitFor(() => existsSync(join(s.root, "bootstrap-started")), "the hook's bootstrap to start");
      const [during] = managed();
      expect(during.lock.owner).toMatchObject({ kind: "orchard", pid: first.claude, startTime: ticks });
      first.kill();
      await waitFor(() => !alive(first.claude), "Claude Code to die");
      // the same name started again at once (the orphaned hook may still be ending): the bootstrap died
      // with its Claude — not its minute, nothing of it left working in the worktree — and the new
      // session takes the worktree back and finishes the bootstrap
      rmSync(join(s.root, "slow"));
      const restart = startClaude(["--worktree", "f1", "-p", "hello"], { cwd: s.primary, home: claudeHome, apiUrl: (api as FakeMessagesApi).url, env });
      const [w] = managed();
      expect(w.lock.owner).toMatchObject({ kind: "orchard", pid: first.claude, startTime: ticks });
      if (first.reaper !== null) expect(w.lock.owner.pid).not.toBe(first.reaper);
      const restarted = await restart.done;
      expect(restarted.code, restarted.stderr).toBe(0);
      const [taken] = managed();
      expect(taken).toMatchObject({ path: w.path, handle: w.handle });
      expect(taken.lock.owner.pid).toBe(restart.pid);
      expect(taken.fingerprints.bootstrap).toMatch(/^(?!failed$)/);
      expect(existsSync(join(s.root, "bootstrap-finished"))).toBe(true);
      expect(inside(w.path)).toBe(false);
      // its lineage: made for the first session, adopted by the second
      const lineage = s.orchard(["lineage", w.handle]).json.events.map((e: any) => e.kind);
      expect(lineage).toEqual(expect.arrayContaining(["created", "adopted"]));

      // 2. killed before the hook could look: it never leases to the process it was reparented to
      writeFileSync(gate, "");
      const second = await session("f2");
      await waitFor(() => existsSync(hookStarted), "the second session's hook to start");
      second.kill();
      await waitFor(() => !alive(second.claude), "Claude Code to die");
      rmSync(gate);
      await waitFor(() => !orchardRunning(), "the orphaned hook to end", 60_000);
      expect(managed().map((x) => x.handle)).toEqual([w.handle]); // nothing made for f2, nobody's lease
    },
  );
});
