// `orchard hygiene`: one disposition per worktree, duplicate groups, disk use and the HTML report.
export { assessPreservation } from "./assess.js";
export { ATTENTION_ORDER, attentionRank, branchNote, byAttention, looksStuck, needsPerson, whatToRun } from "./attention.js";
export type { Todo } from "./attention.js";
export { formatBytes } from "../shared/format.js";
export { diskSummaryLine, measureKept } from "./disk.js";
export { readGitPointer, readHuskFacts, readHuskUniqueIgnored } from "./husk.js";
export type { KnownRepo } from "./husk.js";
export { assessFleet, hygiene, resolveScope } from "./hygiene.js";
export type { Fleet, HygieneOptions } from "./hygiene.js";
export { crossHostGroups, hygieneFleet } from "./fleet-report.js";
export { summaryOf } from "./publish.js";
export type {
  CrossHostGroup,
  CrossHostMember,
  DiskSummary,
  Disposition,
  FleetHygieneReport,
  HostBacklog,
  DuplicateTaskGroup,
  HuskFacts,
  HygieneReport,
  HygieneSummary,
  HygieneWorktree,
  KeptCopyView,
  PatchEquivalentGroup,
  PublishedSummary,
  Subject,
  Suggestion,
} from "./types.js";
export { alsoFree, assessFloor, floorBytes, readFreeSpace, requireFloor, wouldFree } from "./free.js";
export type { FreeSpace } from "./free.js";
export type { KeptAssessment } from "./kept.js";
