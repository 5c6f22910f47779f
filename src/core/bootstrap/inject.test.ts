import { describe, expect, it } from "vitest";
import { literalPattern } from "./inject.js";

describe("literalPattern", () => {
  it("anchors at the worktree's root and escapes every gitignore special character", () => {
    expect(literalPattern("AGENTS.local.md")).toBe("/AGENTS.local.md");
    expect(literalPattern("notes/ctx.md")).toBe("/notes/ctx.md");
    expect(literalPattern("!weird #[a]*?.md ")).toBe("/\\!weird\\ \\#\\[a\\]\\*\\?.md\\ ");
    expect(literalPattern("back\\slash")).toBe("/back\\\\slash");
  });
});
