// Submodules are agent input (SPEC v4 §4.1): no program a submodule's own config names runs from
// an Orchard command, and uncommitted work inside a submodule still counts as work — never hidden,
// removed or salvaged away with the worktree.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
let canary: string;
let wt: { handle: string; path: string };
beforeEach(() => {
  s = Scenario.create();
  canary = join(s.root, "canary-ran");
  // a small repository to use as a submodule
  const lib = join(s.root, "lib");
  mkdirSync(lib);
  git(lib, "init", "-q", "-b", "main");
  writeFileSync(join(lib, "lib.txt"), "library\n");
  writeFileSync(join(lib, ".gitattributes"), "* filter=canary\n");
  git(lib, "add", ".");
  git(lib, "commit", "-q", "-m", "lib");
  wt = s.orchard(["add", "feat-sub", "--no-bootstrap"]).json;
  git(wt.path, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub");
  git(wt.path, "commit", "-q", "-m", "add the submodule");
  // the submodule's own config names a program (what an agent can write there)
  git(join(wt.path, "sub"), "config", "filter.canary.clean", `sh -c 'touch ${canary}; cat'`);
  git(join(wt.path, "sub"), "config", "core.fsmonitor", `sh -c 'touch ${canary}'`);
});
afterEach(() => s.cleanup());

describe("a submodule in an agent's worktree", () => {
  it("runs none of its programs in status, list --full, hygiene, reap or cleanup", () => {
    writeFileSync(join(wt.path, "sub", "lib.txt"), "changed inside the submodule\n");
    for (const args of [["status", wt.handle], ["list", "--full"], ["hygiene"], ["hygiene", "--disk"], ["reap-orphans", "--dry-run"], ["cleanup", "plan"]]) {
      const r = s.orchard(args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBeLessThanOrEqual(3);
      expect(existsSync(canary), args.join(" ")).toBe(false);
    }
  });

  it("counts uncommitted work inside it as work: not clean, never removed by cleanup", () => {
    writeFileSync(join(wt.path, "sub", "new-in-sub.txt"), "work inside the submodule\n");
    s.push("feat-sub", wt.path);
    expect(s.orchard(["release", wt.handle]).json.ok).toBe(true);
    const st = s.orchard(["status", wt.handle]).json.worktree;
    expect(st.dirty.nested).toEqual(["sub"]);
    const h = s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === wt.path);
    expect(h.disposition).not.toBe("reclaimable");
    s.orchard(["cleanup", "run", "--include", "reclaimable,needs_salvage", "--salvage"]);
    expect(existsSync(join(wt.path, "sub", "new-in-sub.txt"))).toBe(true);
  });

  it("a clean, absorbed submodule is no work: the finished worktree is reclaimable", () => {
    s.push("feat-sub", wt.path);
    expect(s.orchard(["release", wt.handle]).json.ok).toBe(true);
    const st = s.orchard(["status", wt.handle]).json.worktree;
    expect(st.dirty.nested ?? []).toEqual([]);
    expect(s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === wt.path).disposition).toBe("reclaimable");
  });
});
