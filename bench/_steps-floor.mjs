// The steps floors of the per-call table (issue 25): the git commands a call of Orchard runs, with
// the same arguments, in the order the SPEC makes it run them and side by side where Orchard runs
// them side by side, by one `sh` and no Node process. What a call costs above its steps floor is
// Orchard's own (Node's start, the bundle, the registry, the judging); what the floor costs above
// the row's goal is git's, for the facts SPEC says the call must read before it answers:
//   adopt (the CLI's exact repeat): `node -e 0`, then [rev-parse, the remotes' config, the program
//     settings (SPEC v3 §4.1: read before any git that could run a program the repo names), the
//     worktree listing (read under the mutation lock, SPEC §4.3)] → [the worktree's status (work
//     preserved), the refs] → the branch's history beyond the remote-tracking refs (unpushed).
//   create: `node -e 0`, then the same first four → the refs → the branch (update-ref) → `git worktree
//     add --lock` → its files dated back (find | touch -h, as add does) → the sparse setting → [HEAD,
//     update-index --refresh] (SPEC v3 §4.10: the index refreshed before the answer). Its path, branch
//     and base are the script's arguments.
//   list: `node -e 0`, then [rev-parse, the remotes' config, the refs, the listing] → the program
//     settings → the history walk of the branches beyond the remote-tracking refs (≈ the snapshot's).
//   hygiene: the same first four → the program settings → every worktree's status with the flags
//     Orchard reads them with (ignored files are work, SPEC §4.4), `cores` at a time, beside the walk.
//   mcp-add (a warm adopt; a warm status the same): the worktree's status. Git's entry for the
//     worktree is told from its admin files and that status (src/core/facts/focused-entry.ts), not from
//     the listing of every worktree. A warm server reads the program settings again only when a file
//     they come from changed (src/git/warm/guard-cache.ts), the refs again only when a ref, the
//     configuration or the graph changed (src/git/warm/refs-kept.ts), and walks the history again
//     only for new object ids (src/core/facts/graphs.ts): a repeat of the same call does none.
//   A heartbeat of a handle runs no git (the lease and its lock text are the row's): it has no steps floor.
import { PROGRAM_KEYS_REGEXP } from "../dist/git/programs/policy.js";
import { REF_FORMAT } from "../dist/git/parse/refs.js";

const q = (word) => `'${String(word).replaceAll("'", "'\\''")}'`;
const STATUS = "status --porcelain=v2 -z --branch --untracked-files=all --ignored=matching";
const guard = `git config -z --show-scope --show-origin --get-regexp ${q(PROGRAM_KEYS_REGEXP)} >/dev/null`;
const listing = "git worktree list --porcelain -z >/dev/null";
const refs = (branch) => `git for-each-ref --format=${q(REF_FORMAT)} -- ${q(`refs/heads/${branch}`)} refs/heads/main refs/remotes refs/heads/master >/dev/null`;
const status = (worktree) => `git -C ${q(worktree)} ${STATUS} >/dev/null`;
const history = (branch) => `git rev-list --parents ${q(branch)} --not --remotes >/dev/null`;
const sideBySide = (...commands) => `${commands.map((c) => `${c} &`).join(" ")} wait`;
const resolveRepo = (refPatterns) =>
  sideBySide(
    "git rev-parse --path-format=absolute --git-common-dir --git-dir --is-bare-repository >/dev/null",
    "git config -z --get-regexp '^remote\\.' >/dev/null",
    `git for-each-ref --format=${q(REF_FORMAT)} -- ${refPatterns} >/dev/null`,
    listing,
  );
/** What add, release and heartbeat ask first from the primary, under the lock they took before (cli/run.ts holdEarly). */
const lockedFirst = sideBySide(
  "git rev-parse --path-format=absolute --git-common-dir --git-dir --is-bare-repository >/dev/null",
  "git config -z --get-regexp '^remote\\.' >/dev/null",
  guard,
  listing,
);
const walk = "git rev-list --parents --branches --not --remotes >/dev/null";

/** The shell script of a row's steps floor (run with `sh -c` in the primary; hygiene's worktrees are its arguments). */
export function stepsScript(row, { worktree, branch, cores = 2 } = {}) {
  switch (row) {
    case "create":
      return [
        lockedFirst,
        `git for-each-ref --format=${q(REF_FORMAT)} -- "refs/heads/$2" refs/heads/main refs/remotes refs/heads/master >/dev/null`,
        `git update-ref --end-of-options "refs/heads/$2" "$3" 0000000000000000000000000000000000000000`,
        `git worktree add --lock --reason 'orchard-lease {"handle":"steps","owner":"bench","host":"bench"}' --end-of-options "$1" "$2" 2>/dev/null`,
        `find "$1" -path "$1/.git" -prune -o ! -type d -exec touch -h -d "@$(( $(date +%s) - 2 ))" {} +`,
        `git -C "$1" config --get core.sparseCheckout`,
        sideBySide(`git -C "$1" rev-parse --verify --quiet 'HEAD^{commit}' >/dev/null`, `git -C "$1" update-index -q --refresh`),
      ].join("\n");
    case "list":
      return [resolveRepo("refs/heads refs/remotes"), guard, walk].join("\n");
    case "hygiene":
      return [
        resolveRepo("refs/heads refs/remotes"),
        guard,
        sideBySide(`printf '%s\\0' "$@" | xargs -0 -P${cores} -I{} git -C {} ${STATUS} >/dev/null`, walk),
      ].join("\n");
    case "adopt":
      return [lockedFirst, sideBySide(status(worktree), refs(branch)), history(branch)].join("\n");
    case "mcp-add":
      return status(worktree);
    default:
      throw new Error(`no steps floor for ${row}`);
  }
}

/** Which rows are set against which steps floor (`vsSteps` in the table). */
export const STEPS = {
  create: "floor-create-steps",
  list: "floor-list-steps",
  hygiene: "floor-hygiene-steps",
  adopt: "floor-adopt-steps",
  "mcp-add": "floor-mcp-add-steps",
  "mcp-status": "floor-mcp-add-steps",
};
