// `worktree add` asks git for parallel checkout through GIT_CONFIG_COUNT, after the caller's own
// entries. A `git` wrapper first on PATH records the environment each call sees.
import { afterEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { addWorktree } from "./write.js";

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
  it.skipIf(availableParallelism() < 2)("uses parallel checkout and keeps the caller's GIT_CONFIG entries", async () => {
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
    Object.assign(process.env, { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "caller" });
    await addWorktree({ cwd: repo, path: join(dir, "wt"), lockReason: "test", newBranch: "b", start: "main" });
    const seen = readFileSync(log, "utf8");
    expect(seen).toContain("GIT_CONFIG_COUNT=3\n"); // the caller's, parallel checkout, hooks off (env.ts)
    expect(seen).toContain("GIT_CONFIG_KEY_0=user.name\n");
    expect(seen).toContain("GIT_CONFIG_KEY_1=checkout.workers\n");
    expect(seen).toContain(`GIT_CONFIG_VALUE_1=${Math.min(availableParallelism(), 4)}\n`);
    expect(seen).toContain("GIT_CONFIG_KEY_2=core.hooksPath\n");
  });
});
