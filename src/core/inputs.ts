// The input schema of every operation, shared by the library, the CLI and the MCP server (whose
// tool input schemas are generated from these): flags in camelCase, positional arguments by name.
// Semantic checks (branch names, durations, pids) happen in core/validate.ts.
import { z } from "zod";
import { usageError } from "./errors.js";

const text = z.string();
const pid = z.union([z.number().int(), z.string().regex(/^\d+$/, "digits")]);

export const AddInput = z
  .object({
    branch: text.describe("the branch (a literal branch name)"),
    base: text.optional().describe("start point for a new branch (default: the default branch)"),
    task: text.optional().describe("the caller's task id or URL"),
    owner: text.optional().describe("the agent/session taking the lease"),
    pid: pid.optional().describe("the owner's process id"),
    ttl: text.optional().describe("lease time to live, e.g. 30m, 2h"),
    policy: z.enum(["isolated", "reuse-compatible", "recycle-terminal"]).optional(),
    resume: z.boolean().optional().describe("adopt a dirty worktree of the same task"),
    bootstrap: z.boolean().optional().describe("false skips bootstrap (--no-bootstrap)"),
    dryRun: z.boolean().optional().describe("decide and report, change nothing"),
  })
  .strict();

export const ReleaseInput = z
  .object({
    target: text.describe("a handle or a worktree path"),
    outcome: z.enum(["done", "abandoned", "failed"]).optional(),
    owner: text.optional(),
  })
  .strict();

export const HeartbeatInput = z
  .object({ target: text.describe("a handle or a worktree path"), owner: text.optional(), ttl: text.optional(), pid: pid.optional() })
  .strict();

export const StatusInput = z.object({ target: text.describe("a handle or a worktree path") }).strict();

export const ListInput = z
  .object({ allRepos: z.boolean().optional(), full: z.boolean().optional().describe("add dirty and merged facts") })
  .strict();

/** Validates an options object; an unknown key or a wrong type is invalid input naming the key. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") return `unknown option ${issue.keys.join(", ")}`;
    return `${path || "(input)"}: ${issue.message}`;
  });
  throw usageError("invalid_argument", issues.join("; "));
}
