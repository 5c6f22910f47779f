import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync, existsSync, readFileSync, utimesSync } from "node:fs";
import { tmpdir, hostname } from "node:os";
import { join } from "node:path";
import { acquireMutationLock } from "./mutation-lock.js";
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
});
