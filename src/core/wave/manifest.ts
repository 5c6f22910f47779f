// The wave manifest (SPEC §3.9), drop-in with existing orchestrators: a JSON array, or
// `{"worktrees": [...]}`, of `{agent_id?, worktree_path (alias path), branch, expected_base}`.
// Unknown keys are ignored (orchestrators add their own). Every invalid entry is reported with
// every reason; one invalid entry refuses the whole manifest (nothing is dropped silently).
// Relative paths are resolved against the primary's root, where harnesses put their worktrees.
import { testBounded } from "../shared/input/pattern.js";
import { isAbsolute, resolve } from "node:path";
import { isValidBranchName, resolveCommit } from "../../git/read.js";
import { usageError, type OrchardError } from "../shared/errors.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { jsonBreakAt, readInputFile } from "../shared/input/input-file.js";

export const DEFAULT_BRANCH_PATTERN = "^worktree-agent-[A-Za-z0-9._/-]+$";

export interface WaveEntry {
  index: number;
  agent_id: string | null;
  worktree_path: string;
  branch: string;
  /** As the manifest gives it (any commit-ish). */
  expected_base: string;
  /** The full sha it resolves to; comparisons use this. */
  expected_base_sha: string;
}

export type InvalidReason =
  | "entry_not_object"
  | "missing_worktree_path"
  | "conflicting_paths"
  | "missing_branch"
  | "invalid_branch"
  | "branch_not_allowed"
  | "missing_expected_base"
  | "expected_base_unresolvable"
  | "invalid_agent_id"
  | "duplicate_entry"
  | "worktree_is_primary"
  | "worktree_is_target"
  | "branch_is_target";

export interface InvalidEntry {
  index: number;
  reason: InvalidReason;
  message: string;
}

export interface WavePlan {
  action: "cleanup_wave" | "skip";
  discovery: "manifest";
  reason: string;
  entries: WaveEntry[];
  invalid: InvalidEntry[];
}

export interface ManifestContext {
  primary: string;
  /** Realpath of the target checkout and its branch (null when detached). */
  targetPath: string;
  targetBranch: string | null;
  branchPattern: string;
}

function invalidManifest(message: string, plan: Partial<WavePlan> = {}): OrchardError {
  const full: WavePlan = { action: "skip", discovery: "manifest", reason: "invalid_manifest", entries: [], invalid: [], ...plan };
  return usageError("invalid_manifest", message, { plan: full });
}

/** The manifest's entries as raw values; a file that cannot be read or parsed is invalid input. */
export function readManifestFile(file: string): unknown[] {
  // a regular file of at most 1 MiB (SPEC v3 §4.2): /dev/zero or a FIFO never wedges the CLI or the MCP server
  const bytes = readInputFile(file, {
    inside: null,
    bad: (why) => invalidManifest(`the manifest ${file} ${why}; a manifest is read only from a regular file of at most 1 MiB`),
  });
  if (bytes === null) throw invalidManifest(`cannot read the manifest ${file}: it does not exist`);
  const text = bytes.toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalidManifest(`the manifest ${file} is not valid JSON${jsonBreakAt(error)}`); // never what it holds
  }
  if (Array.isArray(json)) return json;
  if (json && typeof json === "object" && Array.isArray((json as { worktrees?: unknown }).worktrees)) return (json as { worktrees: unknown[] }).worktrees;
  throw invalidManifest(`the manifest ${file} is neither a JSON array nor an object with a "worktrees" array`);
}

const nonEmpty = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** Validates every entry; throws invalid_manifest (exit 2) listing every invalid reason, else returns the plan. */
export async function validateManifest(raw: unknown[], ctx: ManifestContext): Promise<WaveEntry[]> {
  const entries: WaveEntry[] = [];
  const invalid: InvalidEntry[] = [];
  const pattern = new RegExp(ctx.branchPattern);
  // a wave's entries share a few bases: each distinct one resolved once (not one rev-parse per entry)
  const bases = new Map<string, Promise<string | null>>();
  const resolveBase = (base: string): Promise<string | null> => {
    const known = bases.get(base) ?? resolveCommit(ctx.primary, base);
    bases.set(base, known);
    return known;
  };
  const seenPaths = new Map<string, number>();
  const seenBranches = new Map<string, number>();
  for (const [index, value] of raw.entries()) {
    const bad = (reason: InvalidReason, message: string) => invalid.push({ index, reason, message });
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      bad("entry_not_object", "an entry must be a JSON object");
      continue;
    }
    const e = value as Record<string, unknown>;
    const given = [e.worktree_path, e.path].filter((p) => p !== undefined);
    const pathText = given.find(nonEmpty);
    if (!pathText || given.some((p) => !nonEmpty(p))) bad("missing_worktree_path", "worktree_path (or path) must be a non-empty string");
    else if (given.length === 2 && e.worktree_path !== e.path) bad("conflicting_paths", "worktree_path and path differ");
    const path = pathText ? realOrAbsolute(isAbsolute(pathText) ? pathText : resolve(ctx.primary, pathText)) : "";
    if (path && path === realOrAbsolute(ctx.primary)) bad("worktree_is_primary", "the primary worktree is never cleaned up");
    else if (path && path === ctx.targetPath) bad("worktree_is_target", "the entry is the merge target");
    const branch = e.branch;
    if (!nonEmpty(branch)) bad("missing_branch", "branch must be a non-empty string");
    else if (branch.startsWith("-") || branch.startsWith("refs/") || !(await isValidBranchName(ctx.primary, branch)))
      bad("invalid_branch", `${JSON.stringify(branch)} is not a literal branch name`);
    else if (!testBounded(pattern, branch, "wave.branchPattern"))
      bad("branch_not_allowed", `${JSON.stringify(branch)} does not match wave.branchPattern ${ctx.branchPattern}`);
    else if (branch === ctx.targetBranch) bad("branch_is_target", "the entry's branch is the merge target's branch");
    const base = e.expected_base;
    let baseSha: string | null = null;
    if (!nonEmpty(base)) bad("missing_expected_base", "expected_base must be a non-empty string");
    else if (!(baseSha = await resolveBase(base))) bad("expected_base_unresolvable", `${JSON.stringify(base)} names no commit`);
    if (e.agent_id !== undefined && e.agent_id !== null && typeof e.agent_id !== "string" && typeof e.agent_id !== "number")
      bad("invalid_agent_id", "agent_id must be a string");
    for (const [seen, key, what] of [
      [seenPaths, path, "worktree_path"],
      [seenBranches, typeof branch === "string" ? branch : "", "branch"],
    ] as const) {
      if (!key) continue;
      const first = seen.get(key);
      if (first !== undefined) bad("duplicate_entry", `the same ${what} as entry ${first}`);
      else seen.set(key, index);
    }
    if (invalid.some((i) => i.index === index)) continue;
    const agent = e.agent_id === undefined || e.agent_id === null ? null : String(e.agent_id);
    entries.push({
      index,
      agent_id: agent,
      worktree_path: path,
      branch: branch as string,
      expected_base: base as string,
      expected_base_sha: baseSha as string,
    });
  }
  if (invalid.length > 0)
    throw invalidManifest(`the manifest has ${invalid.length} invalid entr${invalid.length === 1 ? "y" : "ies"}; nothing was done`, { entries, invalid });
  return entries;
}
