import { describe, expect, it } from "vitest";
import { formatBytes, renderHygieneHtml, text } from "./html.js";
import { summarize } from "./groups.js";
import type { HygieneReport, HygieneWorktree } from "./types.js";
import { SAMPLE_FACTS } from "../../../test/helpers/facts.js";

const evil = `/w/<script>alert("x")</script> & 'q'\nnext`;
const worktree = {
  ...SAMPLE_FACTS,
  path: evil,
  handle: null,
  repo: "r",
  disposition: "reclaimable",
  reasons: [{ code: "clean", message: "no <b>changes</b>" }],
  suggestion: { action: "remove", command: `git worktree remove -- '${evil}'` },
  managed: false,
  branch: "x<y",
  lifecycle: null,
  disk: { bytes: 2048, uniqueBytes: 1024, apparentBytes: 1500 },
} as HygieneWorktree;

const report: HygieneReport = {
  ok: true,
  generatedAt: "2026-01-01T00:00:00.000Z",
  repos: [{ identity: "r", name: "a<pp", primary: "/p", defaultBranch: "main" }],
  summary: summarize([worktree]),
  worktrees: [worktree],
  duplicateTaskGroups: [{ repo: "r", task: "<t>", handles: ["a", "b"], canonical: "a", others: ["b"], conflict: false }],
  patchEquivalentGroups: [],
  preventableDuplicates: { count: 0, recent: [] },
  cleanupBacklog: { count: 1, bytes: 1024, byDisposition: { reclaimable: { count: 1, bytes: 1024 } } },
  notes: [],
};

describe("renderHygieneHtml", () => {
  const html = renderHygieneHtml(report);
  it("escapes every value: no markup, quotes or raw newlines leak from the data", () => {
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<b>changes");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;\u240anext");
    expect(html).toContain("x&lt;y");
    expect(html.match(/<script>/g)).toHaveLength(1); // our own filter script only
  });
  it("is self-contained: no external URL, a CSP that forbids fetching", () => {
    expect(html).not.toMatch(/(src|href)=["']?https?:/);
    expect(html).toContain("default-src 'none'");
  });
  it("has the summary, both charts and one row per worktree", () => {
    expect(html).toContain('aria-label="worktrees by disposition"');
    expect(html).toContain('aria-label="disk by worktree"');
    expect(html.match(/<tbody data-disposition=/g)).toHaveLength(1);
  });
  it("puts what to run first, the table next, the charts last; rows in attention order", () => {
    const w = (handle: string, disposition: HygieneWorktree["disposition"]): HygieneWorktree => ({ ...worktree, path: `/w/${handle}`, handle, disposition });
    const many = [w("app@a", "live"), w("app@b", "reclaimable"), w("app@c", "needs_salvage"), w("app@d", "unknown")];
    const page = renderHygieneHtml({ ...report, worktrees: many, summary: summarize(many) });
    const at = (s: string): number => page.indexOf(s);
    expect(at('<section id="run">')).toBeGreaterThan(0);
    expect(at('<section id="run">')).toBeLessThan(at('<table id="wt">'));
    expect(at('<table id="wt">')).toBeLessThan(at("<svg"));
    expect([...page.matchAll(/<tbody data-disposition="([a-z_]+)"/g)].map((m) => m[1])).toEqual(["needs_salvage", "unknown", "reclaimable", "live"]);
  });
});

describe("helpers", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1536, "1.5 KiB"],
    [5 * 1024 ** 3, "5.0 GiB"],
    [300 * 1024 ** 3, "300 GiB"],
  ])("formatBytes(%d)", (n, out) => expect(formatBytes(n)).toBe(out));
  it("text shows control characters", () => expect(text("a\tb\u0000")).toBe("a\u2409b\u2400"));
  it("text shows bidi overrides, isolates and C1 controls instead of obeying them", () =>
    expect(text("fix \u202egpj.exe\u2066x\u2069\u0085<")).toBe("fix \\u{202e}gpj.exe\\u{2066}x\\u{2069}\\u{85}&lt;"));
});
