// A long bootstrap must not hold the repo's mutation lock: other agents' adds go on meanwhile.
import { afterEach, beforeEach, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, waitFor } from "../helpers/scenario.js";

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
    JSON.stringify({ bootstrap: { run: [`touch '${started}'; while [ ! -f '${release}' ]; do sleep 0.05; done`], timeout: "60s" } }),
  );
  const slow = s.orchardAsync(["add", "slow-bootstrap"], { env: { ORCHARD_TRUST: "1" } });
  await waitFor(() => existsSync(started), 30_000);
  const other = s.orchard(["add", "meanwhile", "--no-bootstrap"], { env: { ORCHARD_TRUST: "1" } });
  expect(other.code, other.stdout + other.stderr).toBe(0);
  expect(other.json.action).toBe("created");
  writeFileSync(release, "");
  const done = await slow;
  expect(done.code, done.stdout + done.stderr).toBe(0);
  expect(done.json.bootstrap.status).toBe("ran");
});
