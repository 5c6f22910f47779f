// `orchard status` and `orchard list`: facts of one worktree, or of every worktree of a repo.
export { listRepo, status } from "./inspect.js";
export type { ListResult, RepoSummary, StatusResult } from "./inspect.js";
