// The `action` values of the results that have one, as tuples: the library's result types are
// made from them (AddResult, LeaseResult, AdoptResult) and the MCP tools' output schemas list them,
// so the JSON, the types and the schemas name one set. Constants only: loading this loads nothing else.

/** What an admission (`add`, `recycle`, `salvage restore`) did. */
export const ADD_ACTIONS = ["created", "adopted", "reused", "recycled", "refused", "planned"] as const;
export type AddAction = (typeof ADD_ACTIONS)[number];

/** What `release` and `heartbeat` did. */
export const LEASE_ACTIONS = ["released", "already_released", "renewed", "refused"] as const;
export type LeaseAction = (typeof LEASE_ACTIONS)[number];

/** What `adopt` did. */
export const ADOPT_ACTIONS = ["adopted", "already_managed", "refused"] as const;
export type AdoptAction = (typeof ADOPT_ACTIONS)[number];
