// Admission (`orchard add`, `orchard adopt`): the exact handle, candidates found before
// allocating, the policies, and crash-safe creation.
export { add } from "./add.js";
export { adopt } from "./adopt.js";
export type { AdoptAction, AdoptFields, AdoptOptions, AdoptResult } from "./adopt.js";
export { ADOPT_ACTIONS } from "./adopt.js";
export type {
  AddAction,
  AddBootstrapFailed,
  AddFields,
  AddOptions,
  AddResult,
  AddResultOf,
  BootstrappedAction,
  Candidate,
  CandidateKind,
} from "../shared/request.js";
export { ADD_ACTIONS } from "../shared/request.js";
export { settleCreating } from "./settle.js";
// a harness session taking back the worktree it was released from (core/harness-hooks)
export { renewLease } from "./create.js";
export { bootstrapWorktree } from "./rebootstrap.js";
export type { BootstrapOptions, BootstrapResult } from "./rebootstrap.js";
