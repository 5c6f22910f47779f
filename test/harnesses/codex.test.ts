// Orchard's Codex hooks (SPEC v5 §3.15) under the real Codex CLI 0.171.0, offline against a fake
// Responses API: `codex exec --worktree` makes a detached worktree for its thread, the SessionStart
// hook adopts it in place — leased to the Codex process, locked — while the session runs, and the
// SessionEnd hook releases it at the end, keeping it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { FakeResponsesApi, inputMentions } from "../helpers/fake-responses-api.js";
import { codexHomeFor, startCodex } from "../helpers/codex.js";
import { orchardOnPath } from "../helpers/claude-code.js";

let s: Scenario;
let api: FakeResponsesApi | undefined;

beforeEach(() => {
  s = Scenario.create();
});

afterEach(() => {
  api?.close();
  api = undefined;
  s.cleanup();
});

type Row = {
  path: string;
  managed: boolean;
  owner: string | null;
  branch: string | null;
  lifecycle: string | null;
  lock: { locked: boolean; owner: { pid?: number } | null };
};
const rows = (): Row[] => s.orchard(["list"]).json.worktrees as Row[];

describe("codex exec --worktree with Orchard's hooks", () => {
  it("adopts the thread's worktree at session start, leased to the Codex process, and releases it at the end; the model hears the sweep", async () => {
    // a disk floor no disk meets: the startup sweep has something to tell the model
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ disk: { minFree: "900TB" } }));
    git(s.primary, "add", ".orchard.json");
    git(s.primary, "commit", "-q", "-m", "a disk floor");
    const codexHome = join(s.root, "codex-home");
    const home = join(s.root, "user-home");
    mkdirSync(home);
    let during: Row[] = [];
    api = await FakeResponsesApi.start((_request, index) => {
      if (index === 0) during = rows(); // mid-session: Codex waits for this answer
      return "done";
    });
    codexHomeFor(codexHome, api.url);
    // installed as a person would, `orchard` found through PATH and the workspace through ORCHARD_HOME
    const env = orchardOnPath(s.root, s.home);
    const install = s.orchard(["codex", "install", "--via", "bin"], { noHome: true, env: { ...env, CODEX_HOME: codexHome } });
    expect(install.code, install.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(codexHome, "hooks.json"), "utf8")).hooks.SessionStart[0].hooks[0].command).toBe("orchard codex session-start");

    const run = startCodex(["exec", "--worktree", "--dangerously-bypass-hook-trust", "say done"], { cwd: s.primary, home, codexHome, env });
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    const session = /session id: (\S+)/.exec(r.stdout + r.stderr)?.[1] as string;
    expect(session).toBeTruthy();

    const worktree = during.find((w) => w.managed);
    expect(worktree, JSON.stringify(during)).toBeDefined();
    expect(worktree).toMatchObject({ owner: `codex:${session}`, branch: null, lifecycle: "active" });
    expect(worktree?.path.startsWith(join(codexHome, "worktrees"))).toBe(true);
    expect(worktree?.lock).toMatchObject({ locked: true, owner: { pid: run.pid } });
    // the thread's own record names that session
    const admin = git(worktree?.path as string, "rev-parse", "--path-format=absolute", "--git-dir");
    expect(JSON.parse(readFileSync(join(admin, "codex-thread.json"), "utf8"))).toEqual({ version: 1, ownerThreadId: session });

    // the SessionStart hook's additionalContext reached the model's input
    expect(api.requests.some((request) => inputMentions(request, "Orchard: disk_low"))).toBe(true);

    const after = rows().find((w) => w.path === worktree?.path);
    expect(after).toMatchObject({ managed: true, lifecycle: "terminal", owner: null, lock: { locked: false } });
  });
});
