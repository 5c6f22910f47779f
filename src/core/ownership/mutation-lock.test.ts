import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync, existsSync, readFileSync, utimesSync } from "node:fs";
import { tmpdir, hostname } from "node:os";
import { join } from "node:path";
import { acquireMutationLock, heldMutationLock, releaseEarlyMutationLock, takeEarlyMutationLock, withMutationLockIfFree } from "./mutation-lock.js";
import { readStartTime } from "./process.js";
import { deadPid } from "../../../test/helpers/scenario.js";
import { WAIT_TIMEOUT_MS } from "../../../test/helpers/time.js";

const dir = () => mkdtempSync(join(tmpdir(), "orchard-lock-"));
const body = (pid: number, startTime: string | null, host = hostname()) => JSON.stringify({ pid, startTime, host, at: new Date().toISOString() });

describe("the per-repo mutation lock", () => {
  it("is exclusive and released", async () => {
    const d = dir();
    const lock = await acquireMutationLock(d);
    await expect(acquireMutationLock(d, { timeoutMs: 150 })).rejects.toMatchObject({ code: "repo_busy" });
    lock.release();
    expect(existsSync(join(d, "orchard-mutation.lock"))).toBe(false);
    (await acquireMutationLock(d)).release();
  });

  it("steals a lock whose owner died", async () => {
    const d = dir();
    writeFileSync(join(d, "orchard-mutation.lock"), body(deadPid(), "1"));
    const lock = await acquireMutationLock(d, { timeoutMs: WAIT_TIMEOUT_MS });
    expect(JSON.parse(readFileSync(join(d, "orchard-mutation.lock"), "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("steals a lock whose pid was reused (start time differs)", async () => {
    const d = dir();
    writeFileSync(join(d, "orchard-mutation.lock"), body(process.pid, "1"));
    (await acquireMutationLock(d, { timeoutMs: WAIT_TIMEOUT_MS })).release();
  });

  it("waits for a live owner, and never steals a lock from another host", async () => {
    const d = dir();
    writeFileSync(join(d, "orchard-mutation.lock"), body(process.pid, await readStartTime(process.pid)));
    await expect(acquireMutationLock(d, { timeoutMs: 150 })).rejects.toMatchObject({ code: "repo_busy" });
    writeFileSync(join(d, "orchard-mutation.lock"), body(deadPid(), "1", "another-host"));
    await expect(acquireMutationLock(d, { timeoutMs: 150 })).rejects.toMatchObject({ code: "repo_busy" });
  });

  it("takes over an empty or unparseable lock once it is older than a few seconds, never a fresh one", async () => {
    for (const text of ["", '{"pid": 12', "null"]) {
      const d = dir();
      const path = join(d, "orchard-mutation.lock");
      writeFileSync(path, text);
      await expect(acquireMutationLock(d, { timeoutMs: 150 })).rejects.toMatchObject({ code: "repo_busy" });
      const old = new Date(Date.now() - 60_000);
      utimesSync(path, old, old);
      const lock = await acquireMutationLock(d, { timeoutMs: 2000 });
      expect(JSON.parse(readFileSync(path, "utf8")).pid).toBe(process.pid);
      lock.release();
    }
  });

  describe("the command line's early hold", () => {
    const lockFile = (d: string) => join(d, "orchard-mutation.lock");

    it("is taken over by the first hold on the same common dir, which then releases it", async () => {
      const d = dir();
      let mismatched = 0;
      expect(await takeEarlyMutationLock(d, () => mismatched++)).toBe(true);
      const held = readFileSync(lockFile(d), "utf8");
      expect(JSON.parse(held).pid).toBe(process.pid);
      // a second early hold in the process is refused (one command, one hold)
      expect(await takeEarlyMutationLock(dir(), () => mismatched++)).toBe(false);
      const seen = await withMutationLockIfFree(d, async (locked) => {
        expect(readFileSync(lockFile(d), "utf8")).toBe(held); // the same hold, not a new one
        return { locked, token: heldMutationLock(d) !== undefined };
      });
      expect(seen).toEqual({ locked: true, token: true });
      expect(existsSync(lockFile(d))).toBe(false);
      releaseEarlyMutationLock(); // nothing left to let go
      expect(mismatched).toBe(0);
    });

    it("is let go, with what was read under it, when the command's repo has another common dir", async () => {
      const [guessed, actual] = [dir(), dir()];
      let mismatched = 0;
      expect(await takeEarlyMutationLock(guessed, () => mismatched++)).toBe(true);
      const locked = await withMutationLockIfFree(actual, async (locked) => {
        expect(existsSync(lockFile(guessed))).toBe(false);
        expect(JSON.parse(readFileSync(lockFile(actual), "utf8")).pid).toBe(process.pid);
        return locked;
      });
      expect(locked).toBe(true);
      expect(mismatched).toBe(1);
      expect(existsSync(lockFile(actual))).toBe(false);
    });

    it("is not taken when the lock is held, and a hold nobody took over is released", async () => {
      const d = dir();
      const other = await acquireMutationLock(d);
      expect(await takeEarlyMutationLock(d, () => undefined)).toBe(false);
      other.release();
      expect(await takeEarlyMutationLock(d, () => undefined)).toBe(true);
      releaseEarlyMutationLock();
      expect(existsSync(lockFile(d))).toBe(false);
      (await acquireMutationLock(d, { timeoutMs: 150 })).release();
    });
  });
});
