// GSD's wave manifest and plan (normalizeCleanupManifest, planWorktreeWaveCleanup): pure, in GSD's
// shape, under Orchard's manifest rules (SPEC §3.9). GSD drops an entry it cannot use and goes on
// with the rest; Orchard never drops one silently: any invalid entry makes the manifest
// `invalid_manifest`, every one listed in `invalid` with its reason. An exact repeat of an entry is
// dropped as GSD drops it (it names the same work twice). The rest of Orchard's checks (the branch
// a literal name, the base a commit, the repository's own wave.branchPattern) run when the wave does.
import type { InvalidManifestEntry, ManifestEntry, NormalizedManifest, WavePlan } from "./types.js";

const DEFAULT_BRANCH_PATTERN = /^worktree-agent-[A-Za-z0-9._/-]+$/;

const text = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** The entry, or the reasons it is invalid (Orchard's InvalidReason codes). */
function entryOf(raw: unknown): ManifestEntry | Omit<InvalidManifestEntry, "index">[] {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return [{ reason: "entry_not_object", message: "an entry must be a JSON object" }];
  const e = raw as Record<string, unknown>;
  const bad: Omit<InvalidManifestEntry, "index">[] = [];
  const given = [e.worktree_path, e.path].filter((p) => p !== undefined);
  const path = given.find(text);
  if (!path || given.some((p) => !text(p))) bad.push({ reason: "missing_worktree_path", message: "worktree_path (or path) must be a non-empty string" });
  else if (given.length === 2 && e.worktree_path !== e.path) bad.push({ reason: "conflicting_paths", message: "worktree_path and path differ" });
  const branch = e.branch;
  if (!text(branch)) bad.push({ reason: "missing_branch", message: "branch must be a non-empty string" });
  else if (branch.startsWith("-") || branch.startsWith("refs/"))
    bad.push({ reason: "invalid_branch", message: `${JSON.stringify(branch)} is not a literal branch name` });
  else if (!DEFAULT_BRANCH_PATTERN.test(branch))
    bad.push({ reason: "branch_not_allowed", message: `${JSON.stringify(branch)} does not match ${DEFAULT_BRANCH_PATTERN.source}` });
  if (!text(e.expected_base)) bad.push({ reason: "missing_expected_base", message: "expected_base must be a non-empty string" });
  const agent = e.agent_id;
  if (agent !== undefined && agent !== null && typeof agent !== "string" && typeof agent !== "number")
    bad.push({ reason: "invalid_agent_id", message: "agent_id must be a string" });
  if (bad.length > 0) return bad;
  return {
    agent_id: agent === undefined || agent === null ? null : String(agent),
    worktree_path: path as string,
    branch: branch as string,
    expected_base: e.expected_base as string,
  };
}

export function normalizeCleanupManifest(manifest: unknown): NormalizedManifest {
  let parsed = manifest;
  if (typeof manifest === "string") {
    try {
      parsed = JSON.parse(manifest);
    } catch {
      return { ok: false, reason: "invalid_manifest_json", entries: [] };
    }
  }
  const list: unknown[] = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === "object" && Array.isArray((parsed as { worktrees?: unknown }).worktrees)
      ? (parsed as { worktrees: unknown[] }).worktrees
      : [];
  const entries: ManifestEntry[] = [];
  const invalid: InvalidManifestEntry[] = [];
  const exact = new Set<string>();
  const paths = new Map<string, number>();
  const branches = new Map<string, number>();
  for (const [index, raw] of list.entries()) {
    const entry = entryOf(raw);
    if (Array.isArray(entry)) {
      invalid.push(...entry.map((e) => ({ index, ...e })));
      continue;
    }
    const key = `${entry.worktree_path}\0${entry.branch}`;
    if (exact.has(key)) continue;
    exact.add(key);
    const samePath = paths.get(entry.worktree_path);
    const sameBranch = branches.get(entry.branch);
    if (samePath !== undefined || sameBranch !== undefined) {
      const what = samePath !== undefined ? `the same worktree_path as entry ${samePath}` : `the same branch as entry ${String(sameBranch)}`;
      invalid.push({ index, reason: "duplicate_entry", message: `${what}, with another ${samePath !== undefined ? "branch" : "path"}` });
      continue;
    }
    paths.set(entry.worktree_path, index);
    branches.set(entry.branch, index);
    entries.push(entry);
  }
  if (invalid.length > 0) return { ok: false, reason: "invalid_manifest", entries: [], invalid };
  if (entries.length === 0) return { ok: false, reason: "empty_manifest", entries: [] };
  return { ok: true, reason: "ok", entries };
}

export function planWorktreeWaveCleanup(repoRoot: string, manifest: unknown): WavePlan {
  const normalized = normalizeCleanupManifest(manifest);
  if (!normalized.ok)
    return {
      ok: false,
      repoRoot,
      action: "skip",
      discovery: "manifest",
      reason: normalized.reason,
      entries: [],
      ...(normalized.invalid ? { invalid: normalized.invalid } : {}),
    };
  return { ok: true, repoRoot, action: "cleanup_wave", discovery: "manifest", reason: "manifest_entries_present", entries: normalized.entries };
}
