// A long bootstrap must not hold the repo's mutation lock: other agents' adds go on meanwhile, and
// an add of the same handle waits for it rather than hand out a worktree whose bootstrap is unfinished.
import { afterEach, beforeEach, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostname } from "node:os";
import { Scenario, liveProcess, waitFor } from "../helpers/scenario.js";
import { TEST_TIMEOUT_MS, durationText } from "../helpers/time.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

it("another add completes while a bootstrap command is still running", async () => {
  const release = join(s.root, "release-bootstrap");
  const started = join(s.root, "bootstrap-started");
  writeFileSync(
    join(s.primary, ".orchard.json"),
    JSON.stringify({ bootstrap: { run: [`touch '${started}'; while [ ! -f '${release}' ]; do sleep 0.05; done`], timeout: durationText(TEST_TIMEOUT_MS) } }),
  );
  const slow = s.orchardAsync(["add", "slow-bootstrap"], { env: { ORCHARD_TRUST: "1" } });
  await waitFor(() => existsSync(started), "the bootstrap command starting");
  const other = s.orchard(["add", "meanwhile", "--no-bootstrap"], { env: { ORCHARD_TRUST: "1" } });
  expect(other.code, other.stdout + other.stderr).toBe(0);
  expect(other.json.action).toBe("created");
  writeFileSync(release, "");
  const done = await slow;
  expect(done.code, done.stdout + done.stderr).toBe(0);
  expect(done.json.bootstrap.status).toBe("ran");
});

it("an add of the same handle waits for the bootstrap still running, then adopts it bootstrapped (never `reused` unfinished)", async () => {
  const release = join(s.root, "release-bootstrap");
  const started = join(s.root, "bootstrap-started");
  writeFileSync(
    join(s.primary, ".orchard.json"),
    JSON.stringify({ bootstrap: { run: [`touch '${started}'; while [ ! -f '${release}' ]; do sleep 0.05; done`], timeout: durationText(TEST_TIMEOUT_MS) } }),
  );
  const slow = s.orchardAsync(["add", "slow-bootstrap", "--owner", "a1"], { env: { ORCHARD_TRUST: "1" } });
  await waitFor(() => existsSync(started), "the bootstrap command starting");
  const second = s.orchardAsync(["add", "slow-bootstrap", "--owner", "a1"], { env: { ORCHARD_TRUST: "1" } });
  writeFileSync(release, "");
  const [first, again] = [await slow, await second];
  expect(first.code, first.stdout + first.stderr).toBe(0);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.json).toMatchObject({ action: "adopted", bootstrap: { status: "reused", fingerprint: first.json.bootstrap.fingerprint } });
  expect(first.json.bootstrap.fingerprint).toMatch(/^[0-9a-f]{64}$/);
});

it("a bootstrap journal whose owner still runs makes add wait, bounded by bootstrap.timeout: then bootstrap_running (exit 1)", async () => {
  const added = s.orchard(["add", "feat-a", "--owner", "a1"]).json;
  writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { timeout: "1s" } })); // an input that provokes the bound
  const owner = liveProcess();
  try {
    const journal = { pid: owner.pid, startTime: null, host: hostname(), at: new Date().toISOString() };
    writeFileSync(join(s.adminDir(added.path), "orchard-bootstrap.json"), JSON.stringify(journal));
    const r = s.orchard(["add", "feat-a", "--owner", "a1"]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.json.error).toMatchObject({ code: "bootstrap_running", message: expect.stringContaining(`pid ${owner.pid}`) });
  } finally {
    owner.stop();
  }
  await waitFor(() => !isAlive(owner.pid), "the owner's exit");
  const after = s.orchard(["add", "feat-a", "--owner", "a1"]); // its owner is gone: the bootstrap is re-run
  expect(after.json).toMatchObject({ action: "adopted", bootstrap: { status: "ran" } });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false; // ESRCH: gone (and reaped)
  }
}
