// `orchard hygiene`: one disposition per worktree, duplicate groups, disk use and the HTML report.
export { assessPreservation } from "./assess.js";
export { formatBytes } from "../shared/format.js";
export { readGitPointer, readHuskFacts, readHuskUniqueIgnored } from "./husk.js";
export type { KnownRepo } from "./husk.js";
export { assessFleet, hygiene, resolveScope } from "./hygiene.js";
export type { Fleet, HygieneOptions } from "./hygiene.js";
export type {
  DiskSummary,
  Disposition,
  DuplicateTaskGroup,
  HuskFacts,
  HygieneReport,
  HygieneSummary,
  HygieneWorktree,
  PatchEquivalentGroup,
  Subject,
  Suggestion,
} from "./types.js";
