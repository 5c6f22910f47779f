import { afterEach, describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropBatchShell, keepBatchShell, keptShellPid, ownChildren, startEarlyBatch } from "../run.js";
import { dropEarly } from "../early-answers.js";
import { pinArgs } from "../input/pin.js";
import { waitFor } from "../../../test/helpers/scenario.js";
import { procState } from "../../../test/helpers/processes.js";
import { batchAnsweredAsAlone } from "../../../test/helpers/batch.js";

/** A `git` first on PATH that names its process group and arguments, then does what `body` says. */
function fakeGit(body = ""): string {
  const dir = mkdtempSync(join(tmpdir(), "orchard-kept-"));
  const script = `#!/bin/sh\nawk '{print $5}' /proc/$$/stat > "${dir}/group-$1"\necho $$ > "${dir}/pid-$1"\nprintf '%s\\0' "$@"\necho "x=$ORCHARD_KEPT_X" >&2\n${body}\n`;
  writeFileSync(join(dir, "git"), script);
  chmodSync(join(dir, "git"), 0o755);
  return dir;
}

async function withEnv<T>(changes: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(changes).map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(values))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  };
  set(changes);
  try {
    return await fn();
  } finally {
    set(saved);
  }
}

const groupOf = (dir: string, first: string): number => Number(readFileSync(join(dir, `group-${first}`), "utf8"));
/** Running (a zombie no parent has reaped yet is not: its git has exited). */
const alive = (pid: number): boolean => ![null, "Z"].includes(procState(pid));

describe.runIf(process.platform === "linux")("batches through a kept shell", () => {
  afterEach(() => {
    dropBatchShell();
    dropEarly();
  });

  it("answers each query as git alone does, every git in the kept shell's process group", async () => {
    keepBatchShell();
    const shell = keptShellPid()!;
    expect(shell).toBeGreaterThan(0);
    expect(ownChildren().has(shell)).toBe(true); // the process scan counts it (and its group) as ours
    const { batch, dir } = await batchAnsweredAsAlone();
    expect(batch[2]!.stdout).toContain("\0"); // NUL-separated output comes through whole
    // a second batch: the same shell, in the shell's group, each argument one word
    const fake = fakeGit();
    const plain = mkdtempSync(join(tmpdir(), "orchard-plain-")); // no repository: nothing pins the call (pin.ts), argv is the caller's
    expect(pinArgs(dir)).toHaveLength(2);
    const tricky = ["a", 'it\'s $HOME; `x` \\ "q" *', "--", ""];
    const again = await withEnv({ PATH: `${fake}:${process.env.PATH}` }, async () => Promise.all(startEarlyBatch([tricky, ["b"]], plain)));
    expect(again[0]!.stdout).toBe(tricky.map((a) => `${a}\0`).join(""));
    expect([groupOf(fake, "a"), groupOf(fake, "b")]).toEqual([shell, shell]);
    expect(keptShellPid()).toBe(shell);
  });

  it("gives each batch its own environment and directories", async () => {
    keepBatchShell();
    const fake = fakeGit("pwd >&2");
    const dir = mkdtempSync(join(tmpdir(), "orchard-kept-"));
    const other = join(dir, "other");
    mkdirSync(other);
    const path = `${fake}:${process.env.PATH}`;
    const first = await withEnv({ PATH: path, ORCHARD_KEPT_X: "one" }, async () => Promise.all(startEarlyBatch([["a"], { args: ["b"], cwd: other }], dir)));
    // a query of another directory is `git -C <it>` in the batch's, as the forked batch runs it
    expect(first.map((r) => r.stderr)).toEqual([`x=one\n${dir}\n`, `x=one\n${dir}\n`]);
    expect(first[1]!.stdout).toBe(["-C", other, "b"].map((a) => `${a}\0`).join(""));
    const second = await withEnv({ PATH: path, ORCHARD_KEPT_X: undefined }, async () => Promise.all(startEarlyBatch([["c"]], other)));
    expect(second[0]!.stderr).toBe(`x=\n${other}\n`);
    const real = await Promise.all(startEarlyBatch([["--version"]], dir)); // PATH as it was: the real git again
    expect(real[0]!.stdout).toMatch(/^git version /);
  });

  it("forks from here a batch the shell cannot take: a word with a line break", async () => {
    keepBatchShell();
    const fake = fakeGit();
    const words = ["a", "two\nlines"];
    const [r] = await withEnv({ PATH: `${fake}:${process.env.PATH}` }, async () => Promise.all(startEarlyBatch([words], fake)));
    expect(r!.stdout).toBe(words.map((a) => `${a}\0`).join(""));
    expect(groupOf(fake, "a")).not.toBe(keptShellPid()); // a shell of its own
  });

  it("asks git again alone when the kept shell dies under a batch, and starts another for the next", async () => {
    keepBatchShell();
    const shell = keptShellPid()!;
    const fake = fakeGit(`[ -e "$0.killed" ] || sleep 30\nexit 3`);
    const results = await withEnv({ PATH: `${fake}:${process.env.PATH}` }, async () => {
      const batch = startEarlyBatch([["slow"]], fake);
      await waitFor(() => existsSync(join(fake, "pid-slow")), "the batch's git to start");
      const first = Number(readFileSync(join(fake, "pid-slow"), "utf8"));
      writeFileSync(join(fake, "git.killed"), "");
      process.kill(-shell, "SIGKILL"); // the shell and its group: the batch's git too
      const [r] = await Promise.all(batch);
      return { r: r!, first };
    });
    expect(results.r.exitCode).toBe(3); // answered by a git of its own
    await waitFor(() => !alive(results.first) && !alive(shell), "the killed shell's git and the shell to be gone");
    const next = await Promise.all(startEarlyBatch([["--version"]], fake));
    expect(next[0]!.stdout).toMatch(/^git version /);
    expect(keptShellPid()).not.toBe(shell);
    expect(keptShellPid()).toBeGreaterThan(0);
  });

  it("kills a batch past its time with its gits, reports it timed out, and goes on", async () => {
    keepBatchShell({ timeoutMs: 400 });
    const shell = keptShellPid()!;
    const fake = fakeGit("exec sleep 30");
    const [r] = await withEnv({ PATH: `${fake}:${process.env.PATH}` }, async () => Promise.all(startEarlyBatch([["hang"]], fake)));
    expect(r!.timedOut).toBe(true);
    expect(r!.exitCode).toBeNull();
    const sleeper = Number(readFileSync(join(fake, "pid-hang"), "utf8"));
    await waitFor(() => !alive(sleeper), "the hung git to be gone");
    const next = await Promise.all(startEarlyBatch([["--version"]], fake));
    expect(next[0]!.exitCode).toBe(0);
    expect(keptShellPid()).not.toBe(shell);
  });

  it("ends with its stdin and removes its directory", async () => {
    keepBatchShell();
    const shell = keptShellPid()!;
    const dirs = readFileSync(`/proc/${shell}/cmdline`, "utf8").split("\0");
    const own = dirs[dirs.length - 2]!; // sh -s -- <dir>
    expect(own).toContain("orchard-batches-");
    expect(existsSync(own)).toBe(true);
    dropBatchShell();
    await waitFor(() => !alive(shell) && !existsSync(own), "the kept shell to end and its directory to go");
  });
});
