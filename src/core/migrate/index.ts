// `orchard registry migrate`: a workspace's SQLite registry moved into a fleet's PostgreSQL.
export { countMismatches, migrateRegistry } from "./migrate.js";
export type { MigrateDone, MigrateOptions, MigrateRefused, MigrateResult } from "./migrate.js";
