// Errors raised by the git layer. Each keeps the full result so callers can explain what happened.
import type { ProcessResult } from "./result.js";

export class GitError extends Error {
  readonly code = "git_failed";
  constructor(
    readonly result: ProcessResult,
    options?: { cause?: unknown },
  ) {
    const what = `git ${result.args.join(" ")}`;
    const why = result.timedOut ? "timed out" : `exited ${result.exitCode ?? result.signal}`;
    const detail = result.stderr.trim().split("\n").slice(-3).join(" ");
    super(`${what} ${why}${detail ? `: ${detail}` : ""}`, options);
    this.name = "GitError";
  }
}

/**
 * A worktree's status that git was not asked for, or whose answer would not be true: a program
 * that may not run would decide it (programs/attributes.ts), or something an agent wrote moves or wedges
 * git there (boundary.ts). Unknown, never clean (SPEC v3/v4 §4.1).
 */
export class StatusUnknownError extends Error {}
