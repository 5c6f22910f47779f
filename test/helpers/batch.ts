// The oracle of a batch of git queries (src/git/run.ts startEarlyBatch, forked or through the
// kept shell): each answer is what the same git run alone in the same directory answers
// (pinned to the worktree there, as every git call of Orchard's is).
import { expect } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, runProcess, startEarlyBatch, type ProcessResult } from "../../src/git/run.js";
import { hardenedEnv } from "../../src/git/env.js";
import { pinnedArgv } from "../../src/git/input/pin.js";
import { PROCESS_TIMEOUT_MS } from "./time.js";

/** Queries that answer, fail with an exit code that is an answer, print NULs, and fail outright. */
export const MIXED_QUERIES = [
  ["rev-parse", "--git-dir"],
  ["config", "--get", "no.such"],
  ["worktree", "list", "--porcelain", "-z"],
  ["log", "--no-such-option"],
];

/** Starts MIXED_QUERIES as one batch in a new repository and checks each answer against git run alone; returns the batch and the repository. */
export async function batchAnsweredAsAlone(): Promise<{ batch: ProcessResult[]; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "orchard-batch-"));
  await git(["init", "-q", "-b", "main", dir], { cwd: dir, read: false });
  const started = startEarlyBatch(MIXED_QUERIES, dir);
  const env = hardenedEnv({ read: true });
  const batch: ProcessResult[] = [];
  for (const [i, args] of MIXED_QUERIES.entries()) {
    // alone as every git call of Orchard's runs: pinned to the worktree it names (SPEC v4 §4.1)
    const alone = await runProcess("git", args, { cwd: dir, env, timeoutMs: PROCESS_TIMEOUT_MS, argv: pinnedArgv(args, dir) });
    const early = await started[i]!;
    expect({ exitCode: early.exitCode, stdout: early.stdout, stderr: early.stderr, timedOut: early.timedOut }).toEqual({
      exitCode: alone.exitCode,
      stdout: alone.stdout,
      stderr: alone.stderr,
      timedOut: false,
    });
    batch.push(early);
  }
  return { batch, dir };
}
