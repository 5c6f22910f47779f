// The trust table: which config hashes the user trusted for a repo (`orchard trust`). A repo's
// commands (`bootstrap.run`, `runtime.probe`) run only when the hash of its current config is here.
import type { Db } from "./db.js";

export function isTrusted(db: Db, repo: string, configHash: string): boolean {
  return db.prepare("SELECT 1 FROM trust WHERE repo = ? AND config_hash = ?").get(repo, configHash) !== undefined;
}

/** Records trust in a config hash; trusting it again keeps the first time. */
export function saveTrust(db: Db, repo: string, configHash: string): void {
  db.prepare("INSERT INTO trust (repo, config_hash, trusted_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING").run(repo, configHash, new Date().toISOString());
}
