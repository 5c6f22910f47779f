// Bootstrap (SPEC §6): copy from the primary, trusted commands only, context files that stay
// invisible to git and to other worktrees, fingerprints and their drift — real git, real CLI.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

function config(value: unknown): void {
  writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify(value, null, 2));
}

const TRUSTED = { env: { ORCHARD_TRUST: "1" } };

const stepOf = (result: { bootstrap: { steps: { name: string }[] } }, name: string): any => result.bootstrap.steps.find((x) => x.name === name);

describe("copy", () => {
  it("copies untracked files matched by bootstrap.copy and .worktreeinclude, at any depth", () => {
    config({ bootstrap: { copy: [".env"] } });
    writeFileSync(join(s.primary, ".env"), "SECRET=1\n");
    mkdirSync(join(s.primary, "api", "keys"), { recursive: true });
    writeFileSync(join(s.primary, "api", ".env"), "API=2\n");
    writeFileSync(join(s.primary, "api", "keys", "dev.pem"), "pem\n");
    writeFileSync(join(s.primary, ".worktreeinclude"), "# keys\napi/keys/*.pem\n");
    const r = s.orchard(["add", "feat-a"]).json;
    expect(r.bootstrap.status).toBe("ran");
    expect(stepOf(r, "copy")).toMatchObject({ status: "ran", files: 3 });
    expect(readFileSync(join(r.path, ".env"), "utf8")).toBe("SECRET=1\n");
    expect(readFileSync(join(r.path, "api", ".env"), "utf8")).toBe("API=2\n");
    expect(readFileSync(join(r.path, "api", "keys", "dev.pem"), "utf8")).toBe("pem\n");
  });

  it("never follows a symlink out of the repository and never overwrites a tracked file", () => {
    const outside = join(s.root, "outside-secret");
    writeFileSync(outside, "not yours\n");
    symlinkSync(outside, join(s.primary, "linked.env"));
    writeFileSync(join(s.primary, "inner.txt"), "inner\n");
    symlinkSync(join(s.primary, "inner.txt"), join(s.primary, "inside.env"));
    git(s.primary, "branch", "feat-a");
    const scratch = join(s.root, "scratch");
    git(s.primary, "worktree", "add", "-q", scratch, "feat-a");
    s.commit({ in: scratch, file: "tracked.env", content: "tracked\n" });
    git(s.primary, "worktree", "remove", scratch);
    writeFileSync(join(s.primary, "tracked.env"), "untracked copy in the primary\n");
    config({ bootstrap: { copy: ["*.env"] } });
    const r = s.orchard(["add", "feat-a"]).json;
    const copy = stepOf(r, "copy") as { files: number; notCopied: { path: string; why: string }[] };
    expect(copy.files).toBe(1);
    expect(copy.notCopied).toEqual(
      expect.arrayContaining([
        { path: "linked.env", why: "symlink out of the repository" },
        { path: "tracked.env", why: "tracked in the worktree" },
      ]),
    );
    expect(existsSync(join(r.path, "linked.env"))).toBe(false);
    expect(readFileSync(join(r.path, "inside.env"), "utf8")).toBe("inner\n");
    expect(readFileSync(join(r.path, "tracked.env"), "utf8")).toBe("tracked\n");
  });

  it("--no-bootstrap skips everything", () => {
    config({ bootstrap: { copy: [".env"] } });
    writeFileSync(join(s.primary, ".env"), "x\n");
    const r = s.orchard(["add", "feat-a", "--no-bootstrap"]).json;
    expect(r.bootstrap).toEqual({ status: "skipped", fingerprint: null, steps: [] });
    expect(existsSync(join(r.path, ".env"))).toBe(false);
  });
});

describe("repository commands need trust", () => {
  const withCommand = () => config({ bootstrap: { run: ["echo ran > marker.txt"] }, runtime: { probe: ["echo probe"] } });

  it("untrusted: the command does not run, the step is skipped with config_untrusted", () => {
    withCommand();
    const r = s.orchard(["add", "feat-a"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(r.json.path, "marker.txt"))).toBe(false);
    expect(stepOf(r.json, "run: echo ran > marker.txt")).toMatchObject({ status: "skipped", reason: "config_untrusted" });
    expect(stepOf(r.json, "runtime")).toMatchObject({ status: "skipped", reason: "config_untrusted" });
    expect(r.json.bootstrap.fingerprint).toBeNull();
  });

  it("`orchard trust` records the config hash; the command then runs; editing the config needs trust again", () => {
    withCommand();
    const t = s.orchard(["trust", "--yes"]);
    expect(t.code).toBe(0);
    expect(t.json).toMatchObject({ ok: true, trusted: true, source: join(s.primary, ".orchard.json"), configHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const r = s.orchard(["add", "feat-a"]).json;
    expect(readFileSync(join(r.path, "marker.txt"), "utf8")).toBe("ran\n");
    expect(stepOf(r, "run: echo ran > marker.txt")).toMatchObject({ status: "ran", exitCode: 0 });
    expect(r.bootstrap.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    config({ bootstrap: { run: ["echo ran > marker.txt", "echo again > marker2.txt"] } });
    const edited = s.orchard(["add", "feat-b"]).json;
    expect(existsSync(join(edited.path, "marker2.txt"))).toBe(false);
  });

  it("ORCHARD_TRUST=1 trusts for one process", () => {
    withCommand();
    const r = s.orchard(["add", "feat-a"], TRUSTED).json;
    expect(existsSync(join(r.path, "marker.txt"))).toBe(true);
  });

  it("trust without a config is invalid input", () => {
    const r = s.orchard(["trust"]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("no_config");
  });

  it("a failing command keeps the worktree, records fingerprint `failed`, exit 1 bootstrap_failed", () => {
    config({ bootstrap: { run: ["echo about to fail; echo oops >&2; exit 7", "echo never > never.txt"] } });
    const r = s.orchard(["add", "feat-a"], TRUSTED);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ ok: false, action: "created", error: { code: "bootstrap_failed" }, bootstrap: { status: "failed", fingerprint: "failed" } });
    const failed = r.json.bootstrap.steps.find((x: { status: string }) => x.status === "failed");
    expect(failed).toMatchObject({ exitCode: 7 });
    expect(failed.output).toContain("oops");
    expect(existsSync(r.json.path)).toBe(true);
    expect(existsSync(join(r.json.path, "never.txt"))).toBe(false);
    const status = s.orchard(["status", r.json.handle], TRUSTED).json.worktree;
    expect(status.fingerprints).toMatchObject({ bootstrap: "failed", drift: ["fingerprint_failed"] });
    const again = s.orchard(["add", "feat-a"], TRUSTED);
    expect(again.code).toBe(3);
    expect(again.json.reasons.map((x: { code: string }) => x.code)).toEqual(["fingerprint_failed"]);
  });

  it("a command over bootstrap.timeout is killed and fails the bootstrap", () => {
    config({ bootstrap: { run: ["sleep 20"], timeout: "1s" } });
    const r = s.orchard(["add", "feat-a"], TRUSTED);
    expect(r.code).toBe(1);
    expect(stepOf(r.json, "run: sleep 20")).toMatchObject({ status: "failed", reason: expect.stringContaining("timed out") });
  });
});

describe("context files", () => {
  beforeEach(() => {
    mkdirSync(join(s.primary, "docs"));
    writeFileSync(join(s.primary, "docs", "agent.md"), "task={{task}} branch={{ branch }} handle={{handle}} base={{base}} other={{other}}\n");
    config({ context: { files: { "AGENTS.local.md": "docs/agent.md", "notes/ctx.md": "docs/agent.md" } } });
  });

  it("are rendered into the worktree, invisible to its git status and absent from other worktrees", () => {
    const r = s.orchard(["add", "feat/ctx", "--task", "T-9"]).json;
    expect(readFileSync(join(r.path, "AGENTS.local.md"), "utf8")).toBe(`task=T-9 branch=feat/ctx handle=${r.handle} base=main other={{other}}\n`);
    expect(existsSync(join(r.path, "notes", "ctx.md"))).toBe(true);
    expect(git(r.path, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(s.orchard(["status", r.handle]).json.worktree.dirty).toMatchObject({ tracked: 0, untracked: 0 });
    const other = s.orchard(["add", "feat-other", "--no-bootstrap"]).json;
    expect(existsSync(join(other.path, "AGENTS.local.md"))).toBe(false);
    writeFileSync(join(other.path, "AGENTS.local.md"), "mine\n");
    writeFileSync(join(s.primary, "AGENTS.local.md"), "mine\n");
    expect(git(other.path, "status", "--porcelain")).toBe("?? AGENTS.local.md");
    expect(git(s.primary, "status", "--porcelain")).toContain("?? AGENTS.local.md");
    expect(git(s.primary, "config", "--get", "extensions.worktreeConfig")).toBe("true");
  });

  it("a tracked file at a context path fails the bootstrap instead of being overwritten", () => {
    config({ context: { files: { "README.md": "docs/agent.md" } } });
    const r = s.orchard(["add", "feat-a"]);
    expect(r.code).toBe(1);
    expect(stepOf(r.json, "context")).toMatchObject({ status: "failed", reason: expect.stringContaining("tracked") });
    expect(readFileSync(join(r.json.path, "README.md"), "utf8")).toBe("# app\n");
  });

  it("a changed template is context drift: the exact handle is refused", () => {
    const r = s.orchard(["add", "feat-a"]).json;
    expect(s.orchard(["add", "feat-a"]).json.action).toBe("adopted");
    writeFileSync(join(s.primary, "docs", "agent.md"), "new words {{task}}\n");
    const again = s.orchard(["add", "feat-a"]);
    expect(again.code).toBe(3);
    expect(again.json.reasons.map((x: { code: string }) => x.code)).toEqual(["context_drift"]);
    expect(s.orchard(["list"]).json.worktrees.find((w: { handle: string }) => w.handle === r.handle).fingerprints.drift).toEqual(["context_drift"]);
  });
});

describe("fingerprints and drift", () => {
  it("a changed bootstrap input at the worktree's HEAD is bootstrap drift", () => {
    s.commit({ file: "package-lock.json", content: '{"v":1}\n' });
    s.push("main");
    config({ bootstrap: { inputs: ["package-lock.json"] } });
    const r = s.orchard(["add", "feat-a"]).json;
    expect(s.orchard(["status", r.handle]).json.worktree.fingerprints).toMatchObject({ bootstrap: r.bootstrap.fingerprint, drift: [] });
    s.commit({ in: r.path, file: "package-lock.json", content: '{"v":2}\n' });
    const again = s.orchard(["add", "feat-a"]);
    expect(again.code).toBe(3);
    expect(again.json.reasons.map((x: { code: string }) => x.code)).toEqual(["bootstrap_drift"]);
  });

  it("a changed bootstrap config is bootstrap drift; equal configs give equal fingerprints", () => {
    config({ bootstrap: { copy: [".env"] } });
    const a = s.orchard(["add", "feat-a"]).json;
    const b = s.orchard(["add", "feat-b"]).json;
    expect(a.bootstrap.fingerprint).toBe(b.bootstrap.fingerprint);
    config({ bootstrap: { copy: [".env", ".env.local"] } });
    expect(s.orchard(["add", "feat-a"]).json.reasons.map((x: { code: string }) => x.code)).toEqual(["bootstrap_drift"]);
  });

  it("a changed probe output is runtime drift (probes run only when trusted)", () => {
    writeFileSync(join(s.primary, "toolchain.txt"), "v1\n");
    config({ runtime: { probe: ["cat toolchain.txt"] } });
    const r = s.orchard(["add", "feat-a"], TRUSTED).json;
    expect(stepOf(r, "runtime")).toMatchObject({ status: "ran" });
    expect(s.orchard(["add", "feat-a"], TRUSTED).json.action).toBe("adopted");
    writeFileSync(join(s.primary, "toolchain.txt"), "v2\n");
    expect(s.orchard(["add", "feat-a"], TRUSTED).json.reasons.map((x: { code: string }) => x.code)).toEqual(["runtime_drift"]);
    expect(s.orchard(["add", "feat-a"]).json.action).toBe("adopted");
  });

  it("a drifted worktree is no eligible candidate", () => {
    const a = s.orchard(["add", "feat-a", "--task", "T-1"]).json;
    config({ bootstrap: { copy: ["*.local"] } });
    const r = s.orchard(["add", "feat-b", "--task", "T-1", "--dry-run"]).json;
    expect(r.candidates).toEqual([
      expect.objectContaining({ handle: a.handle, eligible: false, reasons: [expect.objectContaining({ code: "bootstrap_drift" })] }),
    ]);
  });
});

describe("configuration", () => {
  it("an unknown key or a wrong type is exit 2 naming the key path; durations take units", () => {
    config({ bootstrap: { run: ["true"], timeout: "5x", bogus: 1 }, context: { files: { "../escape.md": "docs/a.md" } } });
    const r = s.orchard(["add", "feat-a"]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("invalid_config");
    expect(r.json.error.message).toMatch(/bootstrap\.bogus/);
    expect(r.json.error.message).toMatch(/bootstrap\.timeout/);
    expect(r.json.error.message).toMatch(/context\.files/);
    config({ bootstrap: { timeout: "5m" }, lease: { ttl: "2h" }, reap: { guard: "90s" } });
    expect(s.orchard(["add", "feat-a"]).code).toBe(0);
  });
});
