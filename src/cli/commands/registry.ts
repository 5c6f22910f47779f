// `orchard registry migrate`: move a workspace's SQLite registry into a fleet's PostgreSQL. It opens
// no workspace and no repository: only the two registries it names.
import type { Command } from "commander";
import { globalsOf } from "../run.js";
import { printError, printResult } from "../output.js";
import { table } from "../render.js";
import type { MigrateResult } from "../../core/migrate/index.js";

export function renderMigrate(r: MigrateResult): string {
  if (!r.ok) return [`nothing migrated from ${r.from}`, ...r.reasons.map((x) => `  refused: ${x.code}: ${x.message}`)].join("\n");
  const lines = [`migrated ${r.from} (schema v${r.sourceVersion}, hosts ${r.hosts.join(", ") || "none"}) into ${r.to}`];
  lines.push(
    table(
      ["TABLE", "ROWS"],
      Object.entries(r.counts).map(([name, n]) => [name, String(n)]),
    ),
  );
  for (const repo of r.repos.filter((x) => x.action !== "inserted"))
    lines.push(repo.action === "existing" ? `repo ${repo.name}: already known to the fleet` : `repo ${repo.identity}: its name was taken; now ${repo.name}`);
  return lines.join("\n");
}

export function register(program: Command): void {
  const registry = program.command("registry").description("the registry itself: move a workspace's SQLite registry into a fleet's PostgreSQL");
  registry
    .command("migrate")
    .description("copy every row of a SQLite registry into PostgreSQL in one transaction, counts checked; the file is only read")
    .requiredOption("--from <file>", "the SQLite registry to move (a workspace's orchard.db)")
    .requiredOption("--to <url>", "the fleet's registry, postgres://…")
    .action(async (opts: { from: string; to: string }, cmd: Command) => {
      const globals = globalsOf(cmd);
      try {
        const { migrateRegistry } = await import("../../core/migrate/index.js");
        printResult(await migrateRegistry({ from: opts.from, to: opts.to }), globals, renderMigrate);
      } catch (error) {
        printError(error, globals);
      }
    });
  for (const c of registry.commands) c.exitOverride();
}
