// The trust table: which config hashes the user trusted for a repo (`orchard trust`). A repo's
// commands (`bootstrap.run`, `runtime.probe`) run only when the hash of its current config is here,
// trusted on this host: in a fleet, trust given on one machine does not run commands on another.
import type { Sql } from "./sql.js";

export async function isTrusted(sql: Sql, repo: string, configHash: string): Promise<boolean> {
  return (await sql.get("SELECT 1 AS yes FROM trust WHERE repo = ? AND config_hash = ? AND host = ?", [repo, configHash, sql.host])) !== undefined;
}

/** Records trust in a config hash; trusting it again keeps the first time. */
export async function saveTrust(sql: Sql, repo: string, configHash: string): Promise<void> {
  await sql.run("INSERT INTO trust (repo, config_hash, host, trusted_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", [
    repo,
    configHash,
    sql.host,
    new Date().toISOString(),
  ]);
}
