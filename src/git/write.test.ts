// `worktree add` runs the checkout with the repository's own settings: Orchard adds no
// checkout.workers, and the caller's GIT_CONFIG entries reach git first. A `git` wrapper first on
// PATH records the environment each call sees.
import { afterEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addWorktree } from "./write.js";
import { EVERY_CALL, STATIC_GUARD } from "./programs/policy.js";

const saved = {
  PATH: process.env.PATH,
  GIT_CONFIG_COUNT: process.env.GIT_CONFIG_COUNT,
  KEY: process.env.GIT_CONFIG_KEY_0,
  VALUE: process.env.GIT_CONFIG_VALUE_0,
};
afterEach(() => {
  for (const [k, v] of [
    ["PATH", saved.PATH],
    ["GIT_CONFIG_COUNT", saved.GIT_CONFIG_COUNT],
    ["GIT_CONFIG_KEY_0", saved.KEY],
    ["GIT_CONFIG_VALUE_0", saved.VALUE],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

describe("addWorktree", () => {
  it("sets no checkout.workers of its own and keeps the caller's GIT_CONFIG entries", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "orchard-write-")));
    const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    const log = join(dir, "env.log");
    writeFileSync(join(dir, "git"), `#!/bin/sh\nenv | grep '^GIT_CONFIG_' | sort >> '${log}'\necho --- >> '${log}'\nexec '${realGit}' "$@"\n`);
    chmodSync(join(dir, "git"), 0o755);
    const repo = join(dir, "repo");
    const plain = (...args: string[]) => execFileSync(realGit, args, { cwd: dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: dir } });
    plain("init", "-q", "-b", "main", repo);
    plain("-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "i");
    process.env.PATH = `${dir}:${process.env.PATH}`;
    Object.assign(process.env, { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "checkout.workers", GIT_CONFIG_VALUE_0: "3" });
    await addWorktree({ cwd: repo, path: join(dir, "wt"), lockReason: "test", newBranch: "b", start: "main" });
    const seen = readFileSync(log, "utf8");
    // the caller's, the program settings of a repository not known to be trusted, then what every call gets (programs/policy.ts)
    expect(seen).toContain(`GIT_CONFIG_COUNT=${1 + STATIC_GUARD.entries.length + EVERY_CALL.length}\n`);
    expect(seen).toContain("GIT_CONFIG_KEY_0=checkout.workers\n");
    expect(seen).toContain(`GIT_CONFIG_KEY_${1 + STATIC_GUARD.entries.length}=core.hooksPath\n`);
    expect(seen).toContain("GIT_CONFIG_VALUE_0=3\n"); // the caller's parallel checkout, unchanged
    expect(seen.match(/checkout\.workers/g)).toHaveLength(1);
  });
});
