// Fingerprints (SPEC §6), pure. Two worktrees are compatible only when all three are equal.
// - bootstrap: sha256 over the canonical bootstrap config and the object id (a content hash) of
//   each `inputs` path at the worktree's HEAD; `failed` after a failed bootstrap (never equal).
// - context: sha256 over the rendered context files.
// - runtime: sha256 over the probe commands' outputs.
// A recorded null means "never established" (--no-bootstrap, untrusted commands, a row recovered
// from orchard.json): not drift, but never compatible either.
import { createHash } from "node:crypto";
import type { LoadedConfig } from "../shared/config.js";
import type { FingerprintDrift } from "../shared/types.js";

export const FAILED_FINGERPRINT = "failed";

export interface Fingerprints {
  bootstrap: string | null;
  context: string | null;
  runtime: string | null;
}

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** The parts of the config that decide what a bootstrap produces (not the timeout, not context or runtime). */
export function canonicalBootstrapConfig(loaded: LoadedConfig): string {
  const b = loaded.config.bootstrap ?? {};
  // `link` (and sparse) only when set: every fingerprint recorded before they existed stays equal
  return JSON.stringify({
    copy: loaded.copy,
    run: b.run ?? [],
    inputs: b.inputs ?? [],
    preserve: b.preserve ?? [],
    ...(b.link?.length ? { link: b.link } : {}),
    ...(b.sparse?.length ? { sparse: b.sparse } : {}),
  });
}

export function bootstrapFingerprint(canonicalConfig: string, inputs: readonly (readonly [path: string, objectId: string | null])[]): string {
  return sha256(JSON.stringify({ config: JSON.parse(canonicalConfig) as unknown, inputs }));
}

export function contextFingerprint(files: readonly (readonly [target: string, content: string])[]): string {
  return sha256(JSON.stringify([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

export interface ProbeOutput {
  command: string;
  exitCode: number | null;
  stdout: string;
}

export function runtimeFingerprint(outputs: readonly ProbeOutput[]): string {
  return sha256(JSON.stringify(outputs.map((o) => [o.command, o.exitCode, o.stdout.trim()])));
}

export interface ContextVars {
  task: string;
  branch: string;
  handle: string;
  base: string;
}

/** `{{task}}`, `{{branch}}`, `{{handle}}`, `{{base}}` (spaces inside the braces allowed); anything else stays as written. */
export function renderTemplate(template: string, vars: ContextVars): string {
  return template.replace(/\{\{\s*(task|branch|handle|base)\s*\}\}/g, (_, name: keyof ContextVars) => vars[name]);
}

/** The base as a reader knows it: `refs/heads/main` → `main`, `refs/remotes/origin/main` → `origin/main`. */
export function shortRef(ref: string | null, commit: string | null): string {
  if (ref === null) return commit ?? "";
  return ref.replace(/^refs\/(heads|remotes|tags)\//, "");
}

export function contextVarsOf(row: {
  taskRaw: string | null;
  task: string | null;
  branch: string | null;
  handle: string;
  baseRef: string | null;
  baseCommit: string | null;
}): ContextVars {
  return { task: row.taskRaw ?? row.task ?? "", branch: row.branch ?? "", handle: row.handle, base: shortRef(row.baseRef, row.baseCommit) };
}

/**
 * Drift: a recorded fingerprint that differs from the one the worktree would get now. `current`
 * values that could not be computed are null (they differ from any recorded value); a current
 * runtime left undefined was not asked for (it costs running the probes) and is not compared.
 */
export function assessDrift(
  recorded: Fingerprints,
  current: { bootstrap: string | null; context: string | null; runtime?: string | null },
): FingerprintDrift[] {
  const drift: FingerprintDrift[] = [];
  if (recorded.bootstrap === FAILED_FINGERPRINT) drift.push("fingerprint_failed");
  else if (recorded.bootstrap !== null && recorded.bootstrap !== current.bootstrap) drift.push("bootstrap_drift");
  if (recorded.context !== null && recorded.context !== current.context) drift.push("context_drift");
  if (recorded.runtime !== null && current.runtime !== undefined && recorded.runtime !== current.runtime) drift.push("runtime_drift");
  return drift;
}

/** Compatible = every fingerprint established, none failed. */
export function allEstablished(f: Fingerprints): boolean {
  return f.bootstrap !== null && f.bootstrap !== FAILED_FINGERPRINT && f.context !== null && f.runtime !== null;
}
