// vitest globalSetup: asks once per run whether the tests' PostgreSQL server answers and hands the
// answer to every test file (pgAvailable() in ./postgres.ts); drops test schemas that killed runs
// left behind. Without a server, one loud line says the PostgreSQL half is skipped; with
// ORCHARD_TEST_REQUIRE_PG=1 (.ci/run) the run fails instead.
import type { TestProject } from "vitest/node";
import { PG_REQUIRED, PG_URL, dropStaleSchemas, pgUnreachable } from "./postgres.js";

export default async function setup(project: TestProject): Promise<void> {
  const why = await pgUnreachable();
  project.provide("pgUnreachable", why);
  if (why === null) return void (await dropStaleSchemas());
  const where = `no PostgreSQL at ${new URL(PG_URL).host} (${why})`;
  if (PG_REQUIRED) throw new Error(`ORCHARD_TEST_REQUIRE_PG=1 but ${where}: start it (see .ci/run) or set ORCHARD_TEST_PG_URL`);
  process.stderr.write(`\n!!! ${where}: SKIPPING the PostgreSQL half of the suite (set ORCHARD_TEST_PG_URL, or ORCHARD_TEST_REQUIRE_PG=1 to fail) !!!\n\n`);
}
