// The repository every Scenario starts from: a bare `origin` and a primary clone with one pushed
// commit. Built once per run by the global setup (template-setup.ts) and copied for each scenario;
// a process that was handed none (another vitest config) builds its own on first use.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hermeticEnv } from "./env.js";
import { PROCESS_TIMEOUT_MS } from "./time.js";

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, env: hermeticEnv(), stdio: ["ignore", "pipe", "pipe"], timeout: PROCESS_TIMEOUT_MS });
}

/** Builds the template in a new temporary directory and returns that directory. */
export function buildTemplate(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "orchard-template-")));
  const origin = join(dir, "remote", "app.git");
  mkdirSync(join(dir, "remote"));
  const primary = join(dir, "app");
  git(dir, "init", "-q", "--bare", "-b", "main", origin);
  git(dir, "init", "-q", "-b", "main", primary);
  writeFileSync(join(primary, "README.md"), "# app\n");
  mkdirSync(join(primary, "src"));
  for (let i = 0; i < 5; i++) writeFileSync(join(primary, "src", `file${i}.txt`), `line ${i}\n`);
  writeFileSync(join(primary, ".gitignore"), "node_modules/\n*.log\n");
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "initial");
  git(primary, "remote", "add", "origin", origin);
  git(primary, "push", "-q", "-u", "origin", "main");
  git(primary, "remote", "set-head", "origin", "main");
  return dir;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The template the global setup built for this run (template-setup.ts). */
    scenarioTemplate: string;
  }
}
