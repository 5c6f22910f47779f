// `orchard registry migrate --from <sqlite file> --to <postgres url>` (SPEC §5): moves a
// workspace's SQLite registry into a fleet's PostgreSQL registry without loss. Invariants:
// - bad input (no such file, not a registry, not a postgres:// URL) is refused before anything is
//   opened for writing: exit 2, nothing written anywhere;
// - the source file is only ever read (a read-only connection takes one consistent snapshot into a
//   private temporary copy; that copy is what gets migrated to the current schema and read);
// - everything is written in ONE PostgreSQL transaction under a lock: the destination must hold
//   no row of the source's hosts yet (a second migration is refused, `host_rows_present`), and the
//   row and event counts are checked before the commit (a mismatch rolls everything back, exit 1).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Registry, countsOf, hostsOf, type RegistryDump, type RepoOutcome, type TableCounts } from "../../registry/index.js";
import { canonicalTask } from "../shared/naming/task.js";
import { disambiguateRepoName } from "../shared/naming/identity.js";
import { failure, usageError } from "../shared/errors.js";
import { faultPoint } from "../shared/fault.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { registryUrl } from "../shared/registry-url.js";
import { HOST } from "../ownership/index.js";
import { markMoved } from "../workspace/index.js";

export interface MigrateOptions {
  /** The SQLite registry file to move (a workspace's `orchard.db`). */
  from: string;
  /** The fleet's registry, `postgres://…`. */
  to: string;
  /** The host that rows written before hosts existed belong to (default: this host, ORCHARD_HOST). */
  host?: string;
}

interface Common {
  from: string;
  /** The destination, its password hidden. */
  to: string;
  /** The hosts whose rows the source holds. */
  hosts: string[];
}

export interface MigrateDone extends Common {
  ok: true;
  /** The source's schema version before its copy was brought up to date. */
  sourceVersion: number;
  /** Rows moved, table by table (repos: the source's repos, whether new to the destination or not). */
  counts: TableCounts;
  repos: RepoOutcome[];
}

export interface MigrateRefused extends Common {
  ok: false;
  reasons: Reason[];
}

export type MigrateResult = MigrateDone | MigrateRefused;

/** The tables whose count after the move differs from the source's (pure). */
export function countMismatches(expected: TableCounts, found: TableCounts): { table: keyof TableCounts; expected: number; found: number }[] {
  return (Object.keys(expected) as (keyof TableCounts)[])
    .filter((table) => expected[table] !== found[table])
    .map((table) => ({ table, expected: expected[table], found: found[table] }));
}

function requireSourceFile(from: string): string {
  const path = resolve(from);
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) throw usageError("invalid_argument", `--from ${path} does not exist`);
  if (!st.isFile()) throw usageError("invalid_argument", `--from ${path} is not a file`);
  return path;
}

/** Reads the whole source through a migrated private copy; the source file itself is only read. */
async function readSource(path: string, host: string): Promise<{ dump: RegistryDump; version: number }> {
  const scratch = mkdtempSync(join(tmpdir(), "orchard-migrate-"));
  try {
    const copy = join(scratch, "orchard.db");
    const snapshot = await Registry.snapshot(path, copy);
    if (snapshot.kind === "not_registry") throw usageError("not_a_registry", `--from ${path} is not an orchard registry: ${snapshot.detail}`);
    const source = await Registry.open({ home: scratch, file: copy, host }, { canonicalTask });
    try {
      return { dump: await source.transfer.dump(), version: snapshot.version };
    } finally {
      await source.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function migrateRegistry(options: MigrateOptions): Promise<MigrateResult> {
  const host = options.host ?? HOST;
  const url = registryUrl(options.to, "registry migrate moves a SQLite registry into PostgreSQL");
  if (url === null) throw usageError("invalid_registry", "--to needs the fleet's registry, a postgres:// URL");
  const from = requireSourceFile(options.from);
  const { dump, version } = await readSource(from, host);
  const hosts = hostsOf(dump);
  const identities = dump.repos.map((r) => String(r.identity));
  const dest = await Registry.open({ home: tmpdir(), url, host }, { canonicalTask });
  const common = { from, to: dest.location, hosts };
  try {
    const result = await dest.write(
      async (): Promise<MigrateResult> => {
        const present = await dest.transfer.countHostRows(hosts, []);
        const held = Object.entries(present).filter(([, n]) => n > 0);
        if (held.length > 0)
          return {
            ok: false,
            ...common,
            reasons: [
              reason(
                "host_rows_present",
                { hosts, present: Object.fromEntries(held) },
                `${hosts.join(", ")} already ${hosts.length === 1 ? "has" : "have"} ${held.map(([table, n]) => `${n} ${table}`).join(", ")} there; nothing was written`,
              ),
            ],
          };
        const repos = await dest.transfer.load(dump, { renameRepo: disambiguateRepoName });
        faultPoint("migrate-before-commit");
        const expected = countsOf(dump);
        const wrong = countMismatches(expected, await dest.transfer.countHostRows(hosts, identities));
        if (wrong.length > 0)
          throw failure(
            "migrate_count_mismatch",
            `the counts after the move differ from the source (${wrong.map((w) => `${w.table}: ${w.found} of ${w.expected}`).join(", ")}); everything was rolled back`,
          );
        return { ok: true, ...common, sourceVersion: version, counts: expected, repos };
      },
      { lock: "orchard:registry-migrate" },
    );
    // the SQLite file stays as it was; beside it, a marker sends every later command of that
    // workspace to the fleet's registry: a shell that lost ORCHARD_REGISTRY must not act on the
    // moved rows as its own (SPEC v4 §4.11)
    if (result.ok) markMoved(from, dest.location);
    return result;
  } finally {
    await dest.close();
  }
}
