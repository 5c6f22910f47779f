// Which programs a repository's git config may name for Orchard's git calls (SPEC v3 §4.1): all
// of them once the repository is trusted (`orchard trust` recorded its config's hash, or
// ORCHARD_TRUST=1), none otherwise (git/programs.ts lists them and how each is kept off).
import { setProgramPolicy } from "../../git/programs.js";
import { readProgramGuard } from "../../git/programs-read.js";
import type { Registry } from "../../registry/index.js";
import type { RepoContext } from "./repo/repo.js";

export async function isTrusted(repo: RepoContext, registry: Registry): Promise<boolean> {
  if (process.env.ORCHARD_TRUST === "1") return true;
  return repo.config.hash !== null && (await registry.trust.has(repo.identity, repo.config.hash));
}

/** Puts the repository's program policy in force for every git call made in it from now on (read anew on each call of a long-lived process). */
export async function guardRepoPrograms(repo: RepoContext, registry: Registry): Promise<void> {
  const policy = (await isTrusted(repo, registry))
    ? ({ trusted: true, key: "trusted" } as const)
    : await readProgramGuard(repo.bare ? repo.commonDir : repo.primary, repo.commonDir);
  setProgramPolicy(repo.commonDir, policy);
}
