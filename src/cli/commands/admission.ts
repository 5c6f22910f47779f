// add, release, heartbeat: taking and giving back worktrees.
import type { Command } from "commander";
import { runWith } from "../run.js";
import { renderAdd, renderBootstrap, renderLease } from "../render.js";

/** git's first read-only answers start while the library loads (git/early.ts startLockedQueries). */
const LOCKED = { early: "locked" } as const;
/** add: the same, but no listing: it is read under the lock only when the decision needs it (core/admission/add.ts). */
const ADMIT = { early: "admit" } as const;

export function register(program: Command): void {
  program
    .command("add")
    .description("admit a worktree for <branch>: adopt the exact handle, reuse, recycle or create")
    .argument("[branch]", "the branch (a literal branch name); without it, derived from --task (T-123 → t-123, an issue URL → <repo>-<n>)")
    .option("--base <ref>", "start point for a new branch (default: the default branch)")
    .option("--task <id>", "the caller's task (env ORCHARD_TASK)")
    .option("--owner <id>", "the agent/session taking the lease (env ORCHARD_OWNER)")
    .option("--pid <n>", "the owner's process id (its start time is recorded)")
    .option("--ttl <duration>", "lease time to live, e.g. 30m, 2h (default 2h)")
    .option("--policy <policy>", "isolated | reuse-compatible | recycle-terminal | exclusive-task", "isolated")
    .option("--resume", "adopt a dirty worktree of the same task")
    .option("--no-bootstrap", "skip bootstrap (copy, run, context)")
    .option("--dry-run", "decide and report, change nothing")
    .action((branch: string | undefined, opts: Record<string, unknown>, cmd: Command) =>
      runWith(cmd, (o) => o.add({ ...(branch === undefined ? {} : { branch }), ...(opts as object) }), renderAdd, undefined, ADMIT),
    );

  program
    .command("release")
    .description("end the lease of a worktree; lifecycle becomes terminal (idempotent)")
    .argument("<handle|path|task>")
    .option("--outcome <outcome>", "done | abandoned | failed", "done")
    .option("--owner <id>", "who releases (env ORCHARD_OWNER)")
    .option("--force", "a person's override: release a live lease held by another process (never for an agent)")
    .action((target: string, opts: Record<string, unknown>, cmd: Command) =>
      runWith(cmd, (o) => o.release({ target, ...(opts as object) }), renderLease, undefined, LOCKED),
    );

  program
    .command("bootstrap")
    .description("run the bootstrap of an existing worktree (one skipped as untrusted, say); refused over work")
    .argument("<handle|path|task>")
    .option("--owner <id>", "who asks (env ORCHARD_OWNER): its own lease does not block")
    .option("--dry-run", "prove and report, run nothing")
    .action((target: string, opts: Record<string, unknown>, cmd: Command) =>
      runWith(cmd, (o) => o.bootstrap({ target, ...(opts as object) }), renderBootstrap, undefined, LOCKED),
    );

  program
    .command("heartbeat")
    .description("renew the lease of a worktree")
    .argument("<handle|path>")
    .option("--owner <id>", "the lease owner (env ORCHARD_OWNER)")
    .option("--ttl <duration>", "new time to live")
    .option("--pid <n>", "the owner's process id")
    .action((target: string, opts: Record<string, unknown>, cmd: Command) =>
      runWith(cmd, (o) => o.heartbeat({ target, ...(opts as object) }), renderLease, undefined, LOCKED),
    );
}
