// `list` on a terminal: a handle and a branch take at most a quarter of the width each, so one
// 81-character branch no longer hides LOCK and STATE at 120 columns, nor PATH at 200.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Scenario } from "../helpers/scenario.js";
import { orchardInPty } from "../helpers/pty.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const list = (cols: number) =>
  orchardInPty(["--home", s.home, "--repo", s.primary, "list"], { cols, cwd: s.primary, env: { NO_COLOR: "1" } }).screen.filter(Boolean);

describe("list fits one long branch", () => {
  it("OWNER, LOCK and STATE stay at 120 columns, PATH too at 200; the long branch is cut at its end", () => {
    const long = `feat/${"x".repeat(37)}-billing-page-redesign-with-new-coupons`;
    expect(long.length).toBe(81);
    expect(s.orchard(["add", long, "--owner", "agent-1"]).code).toBe(0);
    expect(s.orchard(["add", "short", "--owner", "agent-2"]).code).toBe(0);
    const at120 = list(120);
    expect(at120[0]).toMatch(/^HANDLE +BRANCH +LIFECYCLE +LIVENESS +OWNER +LOCK +STATE$/);
    expect(at120.find((l) => l.includes("feat/xxx"))).toMatch(/feat\/x+…/);
    for (const line of at120) expect(line.length).toBeLessThanOrEqual(120);
    expect(list(200)[0]).toMatch(/^HANDLE +BRANCH +LIFECYCLE +LIVENESS +OWNER +(TASK +)?LOCK +STATE +PATH$/);
  });
});
