// `orchard status` and `orchard list`: facts of one worktree, or of every worktree of a repo.
export { listRepo, readBesideListing, status } from "./inspect.js";
export type { BesideListing, ListResult, RepoSummary, StatusResult } from "./inspect.js";
