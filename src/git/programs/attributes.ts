// Where a program that may not run would decide a fact (SPEC v3 §4.1): a tracked path whose
// `filter` attribute names a driver only the untrusted repository defines. Its status is read
// without the filter (policy.ts), which compares other bytes than git would: neither "clean"
// nor "modified" is established, so the worktree's status is unknown.
import { git } from "../run.js";
import { StatusUnknownError } from "../errors.js";
import { policyForCall } from "./policy.js";

export class ProgramBlockedError extends StatusUnknownError {
  readonly code = "program_not_trusted";
  constructor(
    readonly worktree: string,
    readonly path: string,
    readonly filter: string,
  ) {
    super(
      `${worktree}: ${JSON.stringify(path)} goes through the filter "${filter}", a program only the repository's config names; its status is unknown until the repository is trusted (orchard trust)`,
    );
    this.name = "ProgramBlockedError";
  }
}

/** The error that makes the status of `worktree` unknown, or null when no tracked path names a blocked filter (two processes, only in a repository that has one). */
export async function blockedFilterError(worktree: string): Promise<ProgramBlockedError | null> {
  const policy = policyForCall(worktree);
  if (policy.trusted || policy.blockedFilters.length === 0) return null;
  const listed = await git(["ls-files", "-z", "--cached"], { cwd: worktree, timeoutMs: 300_000 });
  if (listed.stdout === "") return null;
  const r = await git(["check-attr", "-z", "--stdin", "filter"], { cwd: worktree, input: listed.stdout, timeoutMs: 300_000 });
  const tokens = r.stdout.split("\0");
  const blocked = new Set(policy.blockedFilters);
  for (let i = 0; i + 2 < tokens.length; i += 3) {
    const value = tokens[i + 2]!;
    if (blocked.has(value)) return new ProgramBlockedError(worktree, tokens[i]!, value);
  }
  return null;
}
