// Hermetic environment for every git and orchard process a test starts: an empty global config,
// no system config, a fixed identity, C locale, no prompts, and a private HOME.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

const base = realpathSync(mkdtempSync(join(tmpdir(), "orchard-test-env-")));
const emptyConfig = join(base, "gitconfig");
writeFileSync(emptyConfig, "");

export const HERMETIC_ENV: Record<string, string> = {
  HOME: base,
  GIT_CONFIG_GLOBAL: emptyConfig,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Orchard Test",
  GIT_AUTHOR_EMAIL: "test@orchard.invalid",
  GIT_COMMITTER_NAME: "Orchard Test",
  GIT_COMMITTER_EMAIL: "test@orchard.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  GIT_TERMINAL_PROMPT: "0",
  LC_ALL: "C",
  NO_COLOR: "1",
};

let orchardlessPath: string | undefined;

/**
 * This machine's PATH, on which no `orchard` is found: a test that needs one puts it there itself
 * (claude-code.ts orchardOnPath). Where a directory of PATH holds an `orchard` (`npm link` puts it
 * beside node), that directory is replaced by a private one with a link to each of its other programs.
 */
export function pathWithoutOrchard(): string {
  if (orchardlessPath !== undefined) return orchardlessPath;
  const dirs = (process.env.PATH ?? "").split(delimiter);
  orchardlessPath = dirs
    .map((dir, i) => {
      if (dir === "" || !existsSync(join(dir, "orchard"))) return dir;
      const copy = join(base, `path-${i}`);
      mkdirSync(copy, { recursive: true });
      for (const name of readdirSync(dir)) if (name !== "orchard" && !existsSync(join(copy, name))) symlinkSync(join(dir, name), join(copy, name));
      return copy;
    })
    .join(delimiter);
  return orchardlessPath;
}

/** process.env without anything that could point git or orchard elsewhere (no `orchard` on PATH), plus the hermetic values. */
export function hermeticEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // CLAUDE_PID, CLAUDECODE, …: set when the suite itself runs under Claude Code, they would name that Claude to the hooks
    if (key.startsWith("GIT_") || key.startsWith("ORCHARD_") || key.startsWith("CLAUDE")) continue;
    // A CA bundle for TLS, which no process started with this environment uses (git, PostgreSQL and
    // the servers tests start are local): Node parses every certificate in it at each start, ~50 ms
    // of CPU on Node 20, and the suite starts thousands of CLI processes. (npm, which may need it to
    // reach a registry, runs with the machine's own environment: test/package/pack.test.ts.)
    if (key === "NODE_EXTRA_CA_CERTS") continue;
    env[key] = value;
  }
  return { ...env, PATH: pathWithoutOrchard(), ...HERMETIC_ENV, ...extra };
}

/** For tests that call the library in-process (it starts git with process.env): this process's environment made hermetic too. */
export function makeProcessEnvHermetic(): void {
  for (const key of Object.keys(process.env)) if (key.startsWith("GIT_") || key.startsWith("ORCHARD_")) delete process.env[key];
  Object.assign(process.env, HERMETIC_ENV);
}
