// The demo's sandbox: one directory that holds everything the demo makes — a bare `origin`, the
// primary clone with a few hundred files, the workspace (`home`), and an empty git config. Git
// runs hermetic inside it (its own global config, no system config, a fixed identity, HOME inside
// the sandbox), so the demo works on a fresh machine and never reads or writes anything outside.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { addRemote, commitAll, initRepo, pushBranch, type SandboxGit } from "../git/sandbox.js";
import { usageError } from "../core/shared/errors.js";

export interface Sandbox {
  dir: string;
  origin: string;
  primary: string;
  home: string;
  /** Where the simulated Claude Code sessions keep their worktrees (ignored by the primary). */
  claudeWorktrees: string;
  env: Record<string, string>;
  files: number;
  git(cwd: string): SandboxGit;
}

export const DEFAULT_BRANCH = "main";

/** A new temp dir, or the given one when it does not exist or is empty (never someone's files). */
function sandboxDir(dir: string | undefined): string {
  if (dir === undefined) return realpathSync(mkdtempSync(join(tmpdir(), "orchard-demo-")));
  const path = resolve(dir);
  if (existsSync(path) && readdirSync(path).length > 0) throw usageError("invalid_argument", `demo --dir ${path} is not empty; give a new or empty directory`);
  mkdirSync(path, { recursive: true });
  return realpathSync(path);
}

function hermeticEnv(dir: string): Record<string, string> {
  const config = join(dir, "gitconfig");
  writeFileSync(config, "");
  return {
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, ".config"),
    GIT_CONFIG_GLOBAL: config,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Orchard Demo",
    GIT_AUTHOR_EMAIL: "demo@orchard.invalid",
    GIT_COMMITTER_NAME: "Orchard Demo",
    GIT_COMMITTER_EMAIL: "demo@orchard.invalid",
  };
}

const DIAGNOSTICS = new Set(["ORCHARD_TRACE", "ORCHARD_DEBUG"]);

/**
 * Runs `fn` with the process environment pointed at the sandbox: the library spawns git with the
 * process environment, so this is what keeps its git hermetic too. Variables that could point
 * Orchard or git elsewhere (ORCHARD_*, GIT_*) are removed for the duration, then restored;
 * the diagnostics switches stay.
 */
export async function withSandboxEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = new Map<string, string | undefined>();
  const set = (key: string, value: string | undefined) => {
    if (!saved.has(key)) saved.set(key, process.env[key]);
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  };
  for (const key of Object.keys(process.env)) if ((key.startsWith("ORCHARD_") || key.startsWith("GIT_")) && !DIAGNOSTICS.has(key)) set(key, undefined);
  for (const [key, value] of Object.entries(env)) set(key, value);
  try {
    return await fn();
  } finally {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

const MODULES = ["auth", "billing", "search", "catalog", "orders", "users", "notify", "reports", "admin", "api", "jobs", "storage"];

/** A small but real-looking project: ~300 files over a dozen modules, docs and tests. */
function writeProject(primary: string): number {
  const files: [string, string][] = [
    ["README.md", "# shop\n\nThe demo project of `orchard demo`.\n"],
    ["package.json", JSON.stringify({ name: "shop", version: "1.0.0", private: true }, null, 2) + "\n"],
    [".gitignore", "node_modules/\n.claude/\n*.log\n"],
    ["docs/billing.md", "# Billing\n\nAmounts are rounded half-up to the cent.\n"],
  ];
  for (const module of MODULES) {
    for (let i = 0; i < 20; i++) files.push([`src/${module}/${module}-${i}.ts`, `export const ${module}${i} = ${i};\n`]);
    for (let i = 0; i < 4; i++)
      files.push([`test/${module}/${module}-${i}.test.ts`, `import { ${module}${i} } from "../${module}/${module}-${i}.js";\nvoid ${module}${i};\n`]);
    files.push([`docs/${module}.txt`, `${module}: notes\n`]);
  }
  for (const [file, content] of files) {
    mkdirSync(dirname(join(primary, file)), { recursive: true });
    writeFileSync(join(primary, file), content);
  }
  return files.length;
}

/** Creates the sandbox: origin, primary (pushed, origin/HEAD set), an empty workspace. */
export async function createSandbox(dir?: string): Promise<Sandbox> {
  const root = sandboxDir(dir);
  const env = hermeticEnv(root);
  const git = (cwd: string): SandboxGit => ({ cwd, env });
  const sandbox: Sandbox = {
    dir: root,
    origin: join(root, "origin", "shop.git"),
    primary: join(root, "shop"),
    home: join(root, "orchard-home"),
    claudeWorktrees: join(root, "shop", ".claude", "worktrees"),
    env,
    files: 0,
    git,
  };
  await initRepo(git(root), sandbox.origin, { bare: true, branch: DEFAULT_BRANCH });
  await initRepo(git(root), sandbox.primary, { bare: false, branch: DEFAULT_BRANCH });
  sandbox.files = writeProject(sandbox.primary);
  await commitAll(git(sandbox.primary), "initial import");
  await addRemote(git(sandbox.primary), "origin", sandbox.origin);
  await pushBranch(git(sandbox.primary), DEFAULT_BRANCH, { setHead: true });
  mkdirSync(sandbox.claudeWorktrees, { recursive: true });
  mkdirSync(sandbox.home, { recursive: true });
  return sandbox;
}
