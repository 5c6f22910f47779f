// status and list: read-only views of worktrees.
import type { Command } from "commander";
import { runWith } from "../run.js";
import { renderList, renderStatus } from "../render.js";

export function register(program: Command): void {
  program
    .command("status")
    .description("facts of one worktree (dirty, upstream, merged, liveness, lock, fingerprints)")
    .argument("<handle|path>")
    .action((target: string, _opts: unknown, cmd: Command) =>
      runWith(cmd, (o) => o.status({ target }), renderStatus, undefined, { local: true, early: "target" }),
    );

  program
    .command("list")
    .description("every linked worktree of the repo, managed and foreign")
    .option("--all-repos", "every repo the workspace knows")
    .option("--full", "add the costly facts (dirty, merged) — one git status per worktree")
    .action((opts: { allRepos?: boolean; full?: boolean }, cmd: Command) =>
      runWith(cmd, (o) => o.list(opts), renderList, undefined, { local: true, early: opts.full ? "statuses" : "repo", progress: "list" }),
    );
}
