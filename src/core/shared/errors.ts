// The small set of exceptions Orchard throws. A refusal is a result, not an exception; these are
// for invalid input (exit 2) and for failures (exit 1). The CLI maps them to exit codes once.
export type ErrorKind = "usage" | "failure";

export class OrchardError extends Error {
  constructor(
    readonly code: string,
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
export function usageError(code: string, message: string, details?: Record<string, unknown>): OrchardError {
  return new OrchardError(code, message, "usage", details ? { details } : undefined);
}

/** Something failed that is not the caller's fault: git, I/O, the registry. Exit 1. */
export function failure(code: string, message: string, cause?: unknown): OrchardError {
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
