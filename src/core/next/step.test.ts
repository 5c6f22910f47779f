import { describe, expect, it } from "vitest";
import { commandOf, orchard, shell, stepOf, toolCallOf } from "./step.js";

describe("a next step, spelt for a person and for an MCP client", () => {
  it.each([
    [
      orchard("cleanup run", null, { include: "needs_salvage", salvage: true }),
      "orchard cleanup run --include needs_salvage --salvage",
      'orchard_cleanup_run {"include":"needs_salvage","salvage":true}',
    ],
    [orchard("reap-orphans", null, { includeResumable: true }), "orchard reap-orphans --include-resumable", 'orchard_reap_orphans {"includeResumable":true}'],
    [orchard("adopt", "/a b/wt"), "orchard adopt '/a b/wt'", 'orchard_adopt {"path":"/a b/wt"}'],
    [
      orchard("add", "feat/x", { task: "#4", resume: true }),
      "orchard add feat/x --task '#4' --resume",
      'orchard_add {"branch":"feat/x","task":"#4","resume":true}',
    ],
    [orchard("cleanup resume", "p-1"), "orchard cleanup resume p-1", 'orchard_cleanup_resume {"planId":"p-1"}'],
    [orchard("trust"), "orchard trust", "orchard trust"], // no tool: a person approves the repository's commands
    [shell("git remote set-head origin --auto"), "git remote set-head origin --auto", "git remote set-head origin --auto"],
  ])("%j", (step, command, tool) => {
    expect(commandOf(step)).toBe(command);
    expect(toolCallOf(step)).toBe(tool);
  });

  it("reads back a plain orchard command line; a chain or a quoted word stays a command line", () => {
    expect(stepOf("orchard cleanup run --include husk --salvage")).toEqual(orchard("cleanup run", null, { include: "husk", salvage: true }));
    expect(stepOf("orchard status app@x-1")).toEqual(orchard("status", "app@x-1"));
    expect(stepOf("orchard adopt /p && orchard cleanup run")).toEqual(shell("orchard adopt /p && orchard cleanup run"));
    expect(stepOf("git worktree remove -- '/a b'")).toEqual(shell("git worktree remove -- '/a b'"));
  });
});
