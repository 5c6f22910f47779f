// Input an agent or a file controls (issue 36 items 11–14): a lease never names init or Orchard
// itself; a path from git reaches a terminal escaped, in suggestion lines too; a manifest that is
// not JSON is reported by where it broke, never by what it holds; a worktree whose directory is
// gone never reads as clean or as a plain live row.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

describe("input an agent controls", () => {
  it("--pid 1 is refused (exit 2): a lease never names init", () => {
    const r = s.orchard(["add", "feat-a", "--pid", "1", "--no-bootstrap"]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.json.error.message).toMatch(/init/);
    expect(git(s.primary, "branch", "--list", "feat-a")).toBe("");
  });

  it("a foreign worktree's path with terminal escapes is printed escaped in hygiene's suggestion lines", () => {
    const evil = join(s.root, "x\u001b]0;pwned\u0007\u001b[2J");
    git(s.primary, "worktree", "add", "-q", "-b", "evil", evil);
    const r = s.orchard(["hygiene"], { json: false });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("\u001b]0;pwned");
    expect(r.stdout).not.toContain("\u001b[2J");
  });

  it("a manifest that is not JSON: where it broke, never what it holds", () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-manifest-"));
    try {
      const file = join(dir, "shadow");
      writeFileSync(file, "root:*:20265:0:99999:7:::\n");
      const r = s.orchard(["cleanup-wave", "--manifest", file]);
      expect(r.code).toBe(2);
      expect(r.json.error.code).toBe("invalid_manifest");
      expect(r.stdout + r.stderr).not.toContain("root:*");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a worktree whose directory is gone: status says missing, never clean; hygiene's live row says so", () => {
    const added = s.orchard(["add", "feat-m", "--owner", "agent-1", "--no-bootstrap"]).json;
    rmSync(added.path, { recursive: true, force: true });
    const st = s.orchard(["status", added.handle], { json: false });
    expect(st.code, st.stderr).toBe(0);
    expect(st.stdout).toMatch(/dirty\s+missing/);
    expect(st.stdout).not.toMatch(/dirty\s+clean/);
    const h = s.orchard(["hygiene"], { json: false });
    expect(h.stdout).toMatch(/missing_directory/);
  });
});
