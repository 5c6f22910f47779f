// host_summaries: each host's last published hygiene summary per repo, which `hygiene --fleet`
// reads beside the registry's rows (a host's disk and backlog are facts only that host can read).
import type { Sql } from "./sql.js";

export interface HostSummary {
  host: string;
  repo: string;
  publishedAt: string;
  summary: Record<string, unknown>;
}

export async function publishSummary(sql: Sql, repo: string, summary: Record<string, unknown>): Promise<void> {
  await sql.run(
    `INSERT INTO host_summaries (host, repo, published_at, summary) VALUES (?, ?, ?, ?)
     ON CONFLICT(host, repo) DO UPDATE SET published_at = excluded.published_at, summary = excluded.summary`,
    [sql.host, repo, new Date().toISOString(), JSON.stringify(summary)],
  );
}

/** Every host's last summary of a repo, by host. */
export async function loadSummaries(sql: Sql, repo: string): Promise<HostSummary[]> {
  const rows = await sql.all<{ host: string; repo: string; published_at: string; summary: string }>(
    "SELECT * FROM host_summaries WHERE repo = ? ORDER BY host",
    [repo],
  );
  return rows.map((r) => ({ host: r.host, repo: r.repo, publishedAt: r.published_at, summary: JSON.parse(r.summary) as Record<string, unknown> }));
}
