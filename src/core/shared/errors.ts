// The small set of exceptions Orchard throws. A refusal is a result, not an exception; these are
// for invalid input (exit 2) and for failures (exit 1). The CLI maps them to exit codes once.
export type ErrorKind = "usage" | "failure";

/**
 * Every code an OrchardError carries (the `error.code` of the JSON). A failure below the library
 * (git, the registry: `git_failed`, `registry_locked`, …) rejects with its own error class and code.
 */
export const ORCHARD_ERROR_CODES = [
  "bootstrap_running",
  "client_gone",
  "context_file_tracked",
  "context_path_unsafe",
  "context_template_missing",
  "creating_unrepairable",
  "default_branch_unknown",
  "hook_conflict",
  "html_write_failed",
  "internal",
  "invalid_argument",
  "invalid_branch",
  "invalid_config",
  "invalid_duration",
  "invalid_input",
  "invalid_manifest",
  "invalid_registry",
  "migrate_count_mismatch",
  "no_config",
  "not_a_linked_worktree",
  "not_a_registry",
  "not_a_repository",
  "not_a_worktree",
  "not_managed",
  "path_escapes_workspace",
  "plan_not_found",
  "precondition_changed",
  "recycle_failed",
  "refused",
  "registry_moved",
  "remove_failed",
  "repo_busy",
  "repo_unknown",
  "restore_raced",
  "salvage_failed",
  "salvage_too_large",
  "usage",
  "workspace_not_a_directory",
  "worktree_config_unsafe",
] as const;
export type OrchardErrorCode = (typeof ORCHARD_ERROR_CODES)[number];

export class OrchardError extends Error {
  constructor(
    readonly code: OrchardErrorCode,
    message: string,
    readonly kind: ErrorKind,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "OrchardError";
    this.details = options?.details;
  }
  readonly details: Record<string, unknown> | undefined;
}

/** Invalid input: bad branch, bad manifest, bad config, path outside the workspace. Exit 2. */
export function usageError(code: OrchardErrorCode, message: string, details?: Record<string, unknown>): OrchardError {
  return new OrchardError(code, message, "usage", details ? { details } : undefined);
}

/** Something failed that is not the caller's fault: git, I/O, the registry. Exit 1. */
export function failure(code: OrchardErrorCode, message: string, cause?: unknown): OrchardError {
  return new OrchardError(code, message, "failure", cause === undefined ? undefined : { cause });
}

/** The JSON error object of SPEC §2 for any thrown value. */
export function errorObject(error: unknown): { code: string; message: string } {
  if (error instanceof OrchardError) return { code: error.code, message: error.message };
  if (error instanceof Error && "code" in error && typeof error.code === "string" && /^[a-z_]+$/.test(error.code))
    return { code: error.code, message: error.message };
  return { code: "internal", message: error instanceof Error ? error.message : String(error) };
}

export function exitCodeForError(error: unknown): 1 | 2 {
  return error instanceof OrchardError && error.kind === "usage" ? 2 : 1;
}

/** The `--json` object of a thrown value: `{ok: false, ...details, error: {code, message}}`. */
export function errorResult(error: unknown): { ok: false; error: { code: string; message: string } } & Record<string, unknown> {
  const details = error instanceof OrchardError ? error.details : undefined;
  return { ok: false, ...details, error: errorObject(error) };
}
