// `orchard doctor` (SPEC v5 §3.16): each line ✔ or the command that fixes it; the test runs each
// fix as written and the line turns ✔; exit 1 while something needs fixing, 0 once nothing does.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { orchardOnPath } from "../helpers/claude-code.js";

let s: Scenario;
let home: string;
beforeEach(() => {
  s = Scenario.create();
  home = join(s.root, "person");
  mkdirSync(home);
});
afterEach(() => s.cleanup());

const env = () => ({ HOME: home, SHELL: "/bin/bash", XDG_CONFIG_HOME: join(home, ".config") });
const doctor = (json = true) => s.orchard(["doctor"], { json, env: env() });
const line = (r: { json: { checks: { name: string; ok: boolean; fix: string | null; detail: string }[] } }, name: string) => {
  const found = r.json.checks.find((c) => c.name === name);
  if (!found) throw new Error(`no ${name} check`);
  return found;
};
/** A fix as a person types it: in a shell on a terminal (util-linux `script` gives it a pty: `orchard trust` is a person's act), with orchard on PATH and this workspace. */
function runFix(fix: string | null): void {
  expect(fix).toEqual(expect.any(String));
  const r = spawnSync("script", ["-qec", fix as string, "/dev/null"], {
    cwd: s.primary,
    env: hermeticEnv({ ...orchardOnPath(s.root, s.home), ...env() }),
    encoding: "utf8",
  });
  expect(r.status, `${fix}: ${r.stdout}${r.stderr}`).toBe(0);
}

describe("orchard doctor", () => {
  it("node, sqlite, git, registry, workspace, trust, hooks, shell and disk; each fix run turns its line ✔; exit 1, then 0", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { run: ["true"] }, disk: { minFree: "1" } }));
    mkdirSync(join(home, ".claude")); // Claude Code is set up here, without Orchard's hooks
    const first = doctor();
    expect(first.code).toBe(1);
    expect(first.json.checks.map((c: { name: string }) => c.name)).toEqual([
      "node",
      "sqlite",
      "git",
      "registry",
      "workspace",
      "trust",
      "claude-code",
      "codex",
      "opencode",
      "shell",
      "disk",
    ]);
    for (const name of ["node", "sqlite", "git", "registry", "workspace", "codex", "opencode", "disk"]) expect(line(first, name).ok, name).toBe(true);
    expect(line(first, "registry").detail).toMatch(/^SQLite at .*orchard\.db, reachable$/);
    expect(line(first, "workspace").detail).toMatch(/^[0-9a-f]{16} /);
    expect(line(first, "codex").detail).toContain("not set up");
    for (const name of ["trust", "claude-code", "shell"]) {
      const failing = line(first, name);
      expect(failing.ok, name).toBe(false);
      runFix(failing.fix);
    }
    const human = doctor(false);
    expect(human.code, human.stdout).toBe(0);
    expect(
      human.stdout
        .split("\n")
        .filter(Boolean)
        .every((l) => l.startsWith("✔ ")),
    ).toBe(true);
  });

  it("free space under disk.minFree names cleanup run --until-free; an unreachable registry names pg_isready", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ disk: { minFree: "100%" } }));
    git(s.primary, "add", ".orchard.json");
    const r = doctor();
    expect(r.code).toBe(1);
    expect(line(r, "disk")).toMatchObject({ ok: false, fix: "orchard cleanup run --until-free 100%" });
    const far = s.orchard(["doctor", "--registry", "postgres://nobody@127.0.0.1:9/none?connect_timeout=1"], { env: env() });
    expect(far.code).toBe(1);
    expect(line(far, "registry")).toMatchObject({ ok: false, fix: 'pg_isready -d "$ORCHARD_REGISTRY"' });
  });
});
