import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalRemote, disambiguateRepoName, handleFor, localIdentity, repoNameFrom, slug } from "./identity.js";

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
// Arbitrary unicode, plus strings built from URL-ish pieces so the parsers' corner cases actually get hit.
const urlPieces = fc.constantFrom(
  ..."ab:/@[].~\\ \t\n?#İK0".split(""),
  "github.com",
  "file:",
  "://",
  "https://",
  ".git",
  ".GIT",
  ":22",
  ":443",
  "localhost",
  "[::1]",
  "C:",
);
const anyString = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.string({ unit: urlPieces, maxLength: 20 }));

describe("canonicalRemote", () => {
  it.each([
    ["git@github.com:Org/Repo.git", "github.com/org/repo"],
    ["https://user:pw@GitHub.com/org/repo/", "github.com/org/repo"],
    ["ssh://git@github.com:22/Org/Repo.git", "github.com/org/repo"],
    ["https://github.com/Org/Repo", "github.com/org/repo"],
    ["git://github.com/org/repo.git", "github.com/org/repo"],
    ["git+ssh://git@GitLab.com/Group/Sub/Proj.git", "gitlab.com/group/sub/proj"],
    ["git@bitbucket.org:Team/Repo.git/", "bitbucket.org/team/repo"],
    ["https://git.example.com:8443/Team/Proj.git", "git.example.com:8443/Team/Proj"],
    ["https://git.example.com:443/Team/Proj.git", "git.example.com/Team/Proj"],
    ["http://git.example.com:80/Team/Proj", "git.example.com/Team/Proj"],
    ["http://git.example.com:443/Team/Proj", "git.example.com:443/Team/Proj"],
    ["git://Git.Example.com:9418/Team/Proj", "git.example.com/Team/Proj"],
    ["ssh://git@git.example.com:2222/Team/Proj.git", "git.example.com:2222/Team/Proj"],
    ["ssh://git@git.example.com:022/Team/Proj.git", "git.example.com/Team/Proj"],
    ["git@git.example.com:Team/Proj.git", "git.example.com/Team/Proj"],
    ["  git@git.example.com:Team//Proj.git  ", "git.example.com/Team/Proj"],
    ["ssh://host/~user/repo.git", "host/~user/repo"],
    ["host:~user/repo.git", "host/~user/repo"],
    ["https://[::1]:8080/x/y.git", "[::1]:8080/x/y"],
    ["git@[::1]:x/y.git", "[::1]/x/y"],
    ["https://a@b:c@host.com/x", "host.com/x"],
    // Canonical keys read back as themselves.
    ["github.com/org/repo", "github.com/org/repo"],
    ["git.example.com:8443/Team/Proj", "git.example.com:8443/Team/Proj"],
    // Local paths and file:// URLs.
    ["/srv/git/Repo.git", "file:/srv/git/Repo"],
    ["/srv/git/Repo/", "file:/srv/git/Repo"],
    ["/srv/git/Repo/.git", "file:/srv/git/Repo"],
    ["file:///srv/git/Repo.git", "file:/srv/git/Repo"],
    ["file://localhost/srv/git/Repo.git/", "file:/srv/git/Repo"],
    ["FILE:///srv/git/Repo", "file:/srv/git/Repo"],
    ["../sibling.git", "file:../sibling"],
    ["./here", "file:./here"],
    ["~/repos/x.git", "file:~/repos/x"],
    ["C:\\repos\\x.git", "file:C:\\repos\\x"],
    ["bare-name", "file:bare-name"],
    ["/", "file:/"],
    ["ssh://file:2222/x", "file:ssh:/file:2222/x"], // would read back as a path: kept opaque
  ])("%s → %s", (url, expected) => {
    expect(canonicalRemote(url)).toBe(expected);
  });

  it("is idempotent on arbitrary strings", () => {
    fc.assert(
      fc.property(anyString, (s) => canonicalRemote(canonicalRemote(s)) === canonicalRemote(s)),
      { numRuns: 2000 },
    );
  });

  it("is idempotent on remote-shaped strings and agrees across URL forms", () => {
    const seg = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/);
    const host = fc.constantFrom("github.com", "GitLab.com", "git.Example.com", "bitbucket.org", "h");
    fc.assert(
      fc.property(host, fc.array(seg, { minLength: 1, maxLength: 4 }), fc.boolean(), (h, segs, dotGit) => {
        const path = segs.join("/") + (dotGit ? ".git" : "");
        const forms = [`git@${h}:${path}`, `ssh://git@${h}:22/${path}`, `https://u:p@${h}/${path}/`, `ssh://${h}/${path}`];
        const keys = forms.map(canonicalRemote);
        for (const k of keys) expect(canonicalRemote(k)).toBe(k);
        expect(new Set(keys).size).toBe(1);
      }),
    );
  });
});

describe("repo names", () => {
  it("localIdentity prefixes the common dir", () => {
    expect(localIdentity("/home/me/app/.git")).toBe("local:/home/me/app/.git");
  });

  it.each([
    [{ canonicalRemote: "github.com/org/my-app", primaryPath: "/x/y" }, "my-app"],
    [{ canonicalRemote: "file:/srv/git/Proj", primaryPath: "/x/y" }, "Proj"],
    [{ canonicalRemote: "host/", primaryPath: "/work/Fallback" }, "Fallback"],
    [{ canonicalRemote: null, primaryPath: "/home/me/My App!/" }, "My-App"],
    [{ canonicalRemote: null, primaryPath: "C:\\work\\proj" }, "proj"],
    [{ canonicalRemote: null, primaryPath: "/home/me/.dotfiles" }, "dotfiles"],
    [{ canonicalRemote: null, primaryPath: "/" }, "repo"],
    [{ canonicalRemote: null, primaryPath: "/tmp/日本語" }, "repo"],
    [{ canonicalRemote: "example.com/日本", primaryPath: "/tmp/..." }, "repo"],
  ])("repoNameFrom(%o) → %s", (source, expected) => {
    expect(repoNameFrom(source)).toBe(expected);
  });

  it("repoNameFrom is never empty and stays in [A-Za-z0-9._-]", () => {
    fc.assert(
      fc.property(fc.option(anyString), anyString, (remote, primary) => {
        expect(repoNameFrom({ canonicalRemote: remote, primaryPath: primary })).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]*$/);
      }),
    );
  });

  it("disambiguateRepoName appends 6 hex of sha256(identity)", () => {
    expect(disambiguateRepoName("app", "github.com/org/app")).toBe(`app-${sha("github.com/org/app").slice(0, 6)}`);
    expect(disambiguateRepoName("app", "a")).not.toBe(disambiguateRepoName("app", "b"));
  });
});

describe("slug and handleFor", () => {
  const h8 = (b: string) => sha(b).slice(0, 8);
  it.each([
    ["main", "main"],
    ["release-1.2", "release-1.2"],
    ["Feature_X", "Feature_X"],
    ["feature/login", `feature-login-${h8("feature/login")}`],
    ["a//b", `a-b-${h8("a//b")}`],
    ["-lead", `lead-${h8("-lead")}`],
    [".hidden", `hidden-${h8(".hidden")}`],
    ["trail.", `trail-${h8("trail.")}`],
    ["..", h8("..")],
    [".", h8(".")],
    ["", h8("")],
    ["日本語", h8("日本語")],
    ["émoji 🎉", `moji-${h8("émoji 🎉")}`],
    ["deadbeef", `deadbeef-${h8("deadbeef")}`],
    [`feature-login-${h8("feature/login")}`, `feature-login-${h8("feature/login")}-${h8(`feature-login-${h8("feature/login")}`)}`],
    ["x".repeat(81), `${"x".repeat(80)}-${h8("x".repeat(81))}`],
    ["x".repeat(80), "x".repeat(80)],
  ])("slug(%j) → %s", (branch, expected) => {
    expect(slug(branch)).toBe(expected);
  });

  it("handleFor joins repo name and slug", () => {
    expect(handleFor("app", "main")).toBe("app@main");
    expect(handleFor("app", "feature/login")).toBe(`app@feature-login-${h8("feature/login")}`);
  });

  it("slugs are valid single directory names for arbitrary unicode", () => {
    fc.assert(
      fc.property(anyString, (branch) => {
        const s = slug(branch);
        expect(s).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]*$/);
        expect(s.length).toBeLessThanOrEqual(100);
        expect(slug(branch)).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it("handles never collide for distinct branches", () => {
    fc.assert(
      fc.property(anyString, anyString, (a, b) => {
        fc.pre(a !== b);
        expect(handleFor("app", a)).not.toBe(handleFor("app", b));
      }),
      { numRuns: 2000 },
    );
  });

  it("handles never collide for adversarial look-alike branches", () => {
    const sep = fc.constantFrom("/", "-", "--", "_", ".", " ", "//", "é", "-/", "~", ":");
    const word = fc.stringMatching(/^[a-z0-9]{0,6}$/);
    fc.assert(
      fc.property(word, word, sep, sep, (x, y, s1, s2) => {
        const a = `${x}${s1}${y}`;
        const b = `${x}${s2}${y}`;
        fc.pre(a !== b);
        expect(handleFor("app", a)).not.toBe(handleFor("app", b));
        // A branch spelled like another branch's hashed slug does not get that slug.
        if (slug(a) !== a) expect(slug(slug(a))).not.toBe(slug(a));
      }),
      { numRuns: 2000 },
    );
    const pairs: Array<[string, string]> = [
      ["a/b", "a-b"],
      ["a/b", "a--b"],
      ["a.b", "a-b"],
      ["A", "a"],
      ["x", "-x"],
      ["x", "x."],
      ["", "-"],
    ];
    for (const [a, b] of pairs) expect(slug(a)).not.toBe(slug(b));
  });
});
