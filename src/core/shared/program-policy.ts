// Which programs a repository's git config may name for Orchard's git calls (SPEC v3/v4 §4.1):
// none, unless `orchard trust` recorded that setting (its key and value, seen in the repository's
// common config) or ORCHARD_TRUST=1 trusts everything. A setting added or changed since, from any
// source — a worktree's config.worktree, an include, the common config itself — stays off
// (git/programs/policy.ts lists them and how each is kept off). The repository's `.orchard.json` commands
// are trusted by the hash of that file (isTrusted).
import { createHash } from "node:crypto";
import { join } from "node:path";
import { guardTrusting, repoProgramSettings, setProgramPolicy, type ConfigEntry } from "../../git/programs/policy.js";
import { readProgramGuard } from "../../git/programs/read.js";
import type { Registry } from "../../registry/index.js";
import type { RepoContext } from "./repo/repo.js";
import { realOrAbsolute } from "./repo/paths.js";

export async function isTrusted(repo: RepoContext, registry: Registry): Promise<boolean> {
  if (process.env.ORCHARD_TRUST === "1") return true;
  return repo.config.hash !== null && (await registry.trust.has(repo.identity, repo.config.hash));
}

/** The trust record of one program setting: its key and value (the registry's trust table holds it beside config hashes). */
export function programTrustKey(setting: Pick<ConfigEntry, "key" | "value">): string {
  return `program:${createHash("sha256").update(`${setting.key}\0${setting.value}`, "utf8").digest("hex")}`;
}

const readGuard = (repo: RepoContext) => readProgramGuard(repo.bare ? repo.commonDir : repo.primary, repo.commonDir);

/** The program settings of the repository's common config file itself (never a worktree's, never an include's). */
export async function commonConfigPrograms(repo: RepoContext): Promise<ConfigEntry[]> {
  const common = realOrAbsolute(join(repo.commonDir, "config"));
  return repoProgramSettings(await readGuard(repo)).filter((e) => e.file !== undefined && realOrAbsolute(e.file) === common);
}

/** Puts the repository's program policy in force for every git call made in it from now on (read anew on each call of a long-lived process). */
export async function guardRepoPrograms(repo: RepoContext, registry: Registry): Promise<void> {
  const guard = await readGuard(repo); // read even when trusted: it also finds what makes a worktree unknown (git/boundary.ts)
  if (process.env.ORCHARD_TRUST === "1") return setProgramPolicy(repo.commonDir, { trusted: true, key: "trusted" });
  const common = realOrAbsolute(join(repo.commonDir, "config"));
  const candidates = repoProgramSettings(guard).filter((e) => e.file !== undefined && realOrAbsolute(e.file) === common);
  const trusted = new Set<string>();
  for (const e of candidates) if (await registry.trust.has(repo.identity, programTrustKey(e))) trusted.add(programTrustKey(e));
  const policy =
    trusted.size === 0 ? guard : guardTrusting(guard, (e) => e.file !== undefined && realOrAbsolute(e.file) === common && trusted.has(programTrustKey(e)));
  setProgramPolicy(repo.commonDir, policy);
}
