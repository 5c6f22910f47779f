import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalTask, forgeOf } from "./task.js";

const GH = "github.com/gsd-build/get-shit-done";
const GL = "gitlab.com/group/sub/proj";

// The spellings table of issue 11: every row of one block is one task.
const SPELLINGS: [string, string | null, string][] = [
  ["https://github.com/gsd-build/get-shit-done/issues/3707", null, `${GH}#3707`],
  ["gsd-build/get-shit-done#3707", null, `${GH}#3707`],
  ["http://github.com/gsd-build/get-shit-done/issues/3707", null, `${GH}#3707`],
  ["github.com/gsd-build/get-shit-done/issues/3707", null, `${GH}#3707`],
  ["https://github.com/GSD-Build/Get-Shit-Done/issues/3707", null, `${GH}#3707`],
  ["  HTTPS://WWW.GitHub.com/gsd-build/get-shit-done/issues/3707/?utm=x#issuecomment-1  ", null, `${GH}#3707`],
  ["https://github.com/gsd-build/get-shit-done/pull/3707/files", null, `${GH}#3707`],
  ["https://github.com:443/gsd-build/get-shit-done/issues/03707", null, `${GH}#3707`],
  ["github.com/gsd-build/get-shit-done#3707", null, `${GH}#3707`],
  ["#3707", GH, `${GH}#3707`],
  ["GH-3707", GH, `${GH}#3707`],
  ["gh-3707", GH, `${GH}#3707`],
  ["https://gitlab.com/Group/Sub/Proj/-/issues/12", null, `${GL}#12`],
  ["gitlab.com/group/sub/proj/-/work_items/12", null, `${GL}#12`],
  ["#12", GL, `${GL}#12`],
  ["Group/Sub/Proj#12", GL, `${GL}#12`],
  ["gitlab.com/group/sub/proj#12", null, `${GL}#12`],
  ["https://gitlab.com/group/sub/proj/-/merge_requests/12/diffs", null, `${GL}!12`],
  ["!12", GL, `${GL}!12`],
  ["group/sub/proj!12", GL, `${GL}!12`],
  ["gitlab.com/group/sub/proj!12", null, `${GL}!12`],
  ["https://Example.com:443/Path/To/?q=1#frag", null, "example.com/Path/To"],
  ["http://example.com:80/Path", null, "example.com/Path"],
  ["example.com/Path", null, "example.com/Path"],
  ["https://user:pw@example.com/x", null, "example.com/x"],
  ["https://example.com:8443/A?b", null, "example.com:8443/A"],
  ["http://example.com:443/", null, "example.com:443"],
  ["https://bitbucket.org/Team/Repo/issues/5", null, "bitbucket.org/team/repo/issues/5"],
  ["https://github.com/O/R/blob/main/README.md", null, "github.com/o/r/blob/main/README.md"],
  ["  ABC-123  ", null, "abc-123"],
  ["JIRA-123 Fix Login", null, "jira-123 fix login"],
  ["#3707", null, "#3707"],
  ["#3707", "local:/srv/app/.git", "#3707"],
  ["GH-3707", GL, "gh-3707"],
  ["!12", GH, "!12"],
  ["a/b/c#5", GH, "a/b/c#5"],
  ["v2.0/Notes", null, "v2.0/notes"],
  ["ftp://Example.com/A", null, "ftp://example.com/a"],
  ["https://GH-7", GH, "https://gh-7"],
];

describe("canonicalTask", () => {
  it.each(SPELLINGS)("%j (origin %j) → %j", (task, origin, expected) => {
    expect(canonicalTask(task, origin)).toBe(expected);
  });

  it("a repo identity is a forge only on github.com (owner/repo) and gitlab.com (group path)", () => {
    expect(forgeOf(GH)).toEqual({ host: "github.com", path: "gsd-build/get-shit-done" });
    expect(forgeOf(GL)).toEqual({ host: "gitlab.com", path: "group/sub/proj" });
    expect(forgeOf("github.com/a/b/c")).toBeNull();
    expect(forgeOf("git.example.com/a/b")).toBeNull();
    expect(forgeOf("local:/x/.git")).toBeNull();
    expect(forgeOf(null)).toBeNull();
  });
});

// --- properties -------------------------------------------------------------------------------
const seg = (first: string, rest: string) =>
  fc.tuple(fc.constantFrom(...first), fc.array(fc.constantFrom(...rest), { maxLength: 8 })).map(([a, b]) => a + b.join(""));
const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const owner = seg(ALNUM, `${ALNUM}-`);
const name = seg(ALNUM, `${ALNUM}._-`).filter((s) => !/\.git$/i.test(s) && s !== "." && s !== "..");
const num = fc.integer({ min: 1, max: 99999 });
const randomCase = (s: string, mask: number): string => [...s].map((c, i) => ((mask >> (i % 31)) & 1 ? c.toUpperCase() : c.toLowerCase())).join("");
const mask = fc.integer({ min: 0, max: 2 ** 31 - 1 });

const githubRef = fc.record({ owner, repo: name, n: num });
const gitlabRef = fc.record({ groups: fc.array(name, { minLength: 2, maxLength: 4 }), n: num, mr: fc.boolean() });

function githubSpellings(r: { owner: string; repo: string; n: number }, m: number): [string, string | null][] {
  const path = randomCase(`${r.owner}/${r.repo}`, m);
  const origin = `github.com/${r.owner}/${r.repo}`.toLowerCase();
  const host = randomCase("github.com", m >> 3);
  return [
    [`https://${host}/${path}/issues/${r.n}`, null],
    [`http://${host}/${path}/pull/${r.n}`, null],
    [`${host}/${path}/issues/${r.n}/`, null],
    [`https://www.${host}/${path}/pull/${r.n}/files?x=1#y`, null],
    [`https://${host}:443/${path}/discussions/0${r.n}`, null],
    [`${path}#${r.n}`, null],
    [`  ${path}#${r.n}  `, "local:/x"],
    [`#${r.n}`, origin],
    [`GH-${r.n}`, origin],
    [`${host}/${path}#${r.n}`, null],
  ];
}

function gitlabSpellings(r: { groups: string[]; n: number; mr: boolean }, m: number): [string, string | null][] {
  const path = randomCase(r.groups.join("/"), m);
  const origin = `gitlab.com/${r.groups.join("/")}`.toLowerCase();
  const kind = r.mr ? "merge_requests" : "issues";
  const sigil = r.mr ? "!" : "#";
  const out: [string, string | null][] = [
    [`https://gitlab.com/${path}/-/${kind}/${r.n}`, null],
    [`http://GitLab.com/${path}/-/${kind}/${r.n}/`, null],
    [`gitlab.com/${path}/-/${kind}/${r.n}?a#b`, null],
    [`${sigil}${r.n}`, origin],
    [`gitlab.com/${path}${sigil}${r.n}`, null],
  ];
  if (!/^(www\.)?(github\.com|gitlab\.com|bitbucket\.org)$/i.test(r.groups[0] as string)) out.push([`${path}${sigil}${r.n}`, origin]);
  return out;
}

const canonicalOfRef = (r: { kind: "gh"; owner: string; repo: string; n: number } | { kind: "gl"; groups: string[]; n: number; mr: boolean }): string =>
  r.kind === "gh"
    ? canonicalTask(`https://github.com/${r.owner}/${r.repo}/issues/${r.n}`)
    : canonicalTask(`gitlab.com/${r.groups.join("/")}${r.mr ? "!" : "#"}${r.n}`);

describe("canonicalTask properties", () => {
  it("every spelling of one GitHub reference canonicalises to one value", () => {
    fc.assert(
      fc.property(githubRef, mask, (r, m) => {
        const values = new Set(githubSpellings(r, m).map(([t, o]) => canonicalTask(t, o)));
        expect([...values]).toEqual([`github.com/${r.owner}/${r.repo}#${r.n}`.toLowerCase()]);
      }),
      { numRuns: 500 },
    );
  });

  it("every spelling of one GitLab issue or merge request canonicalises to one value", () => {
    fc.assert(
      fc.property(gitlabRef, mask, (r, m) => {
        const values = new Set(gitlabSpellings(r, m).map(([t, o]) => canonicalTask(t, o)));
        expect([...values]).toEqual([`gitlab.com/${r.groups.join("/")}${r.mr ? "!" : "#"}${r.n}`.toLowerCase()]);
      }),
      { numRuns: 500 },
    );
  });

  it("different references never collide", () => {
    const ref = fc.oneof(
      githubRef.map((r) => ({ kind: "gh" as const, ...r })),
      gitlabRef.map((r) => ({ kind: "gl" as const, ...r })),
    );
    const key = (r: Parameters<typeof canonicalOfRef>[0]): string =>
      JSON.stringify(r.kind === "gh" ? ["gh", `${r.owner}/${r.repo}`.toLowerCase(), r.n] : ["gl", r.groups.join("/").toLowerCase(), r.mr, r.n]);
    fc.assert(
      fc.property(ref, ref, (a, b) => {
        if (key(a) !== key(b)) expect(canonicalOfRef(a)).not.toBe(canonicalOfRef(b));
      }),
      { numRuns: 2000 },
    );
  });

  it("a forge reference never equals a plain task or another URL", () => {
    const plain = fc.string({ minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(githubRef, plain, (r, text) => {
        const ref = canonicalTask(`https://github.com/${r.owner}/${r.repo}/issues/${r.n}`);
        const other = canonicalTask(text);
        // a text that is itself a spelling of the reference may meet it; nothing else may
        if (other === ref) expect(text.trim().toLowerCase()).toContain(`${r.owner}/${r.repo}`.toLowerCase());
      }),
      { numRuns: 2000 },
    );
  });

  it("is idempotent, with and without an origin", () => {
    const pieces = fc.constantFrom(
      ..."ab:/@[].~\\ ?#!İK0".split(""),
      "github.com",
      "gitlab.com",
      "www.",
      "https://",
      ":443",
      ":80",
      "/-/issues/",
      "/pull/",
      "GH-",
      "7",
    );
    const text = fc.oneof(fc.string(), fc.string({ unit: pieces, maxLength: 12 }));
    const origin = fc.constantFrom(null, GH, GL, "local:/x", "example.com/a/b");
    fc.assert(
      fc.property(text, origin, (t, o) => canonicalTask(canonicalTask(t, o), o) === canonicalTask(t, o)),
      { numRuns: 5000 },
    );
  });
});
