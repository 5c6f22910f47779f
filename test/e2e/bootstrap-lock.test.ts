// A long bootstrap must not hold the repo's mutation lock: other agents' adds go on meanwhile.
import { afterEach, beforeEach, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, waitFor } from "../helpers/scenario.js";
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
