// The command line's code cache (src/cli/start/code-cache.ts, docs/configuration.md "Environment"): the
// first call writes V8's compiled code to $XDG_CACHE_HOME/orchard, later calls run from it, and
// anything wrong with it (garbage, another user's or a group-writable file, an unwritable place,
// the cache turned off) costs a compile, never the command or its answer.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, type CliResult } from "../helpers/scenario.js";

let s: Scenario;
let cache: string;
beforeEach(() => {
  s = Scenario.create();
  cache = join(s.root, "xdg-cache");
});
afterEach(() => s.cleanup());

/** `orchard list` with the cache at `xdg` (and tracing on); the cache verdict its trace printed. */
function list(env: Record<string, string> = {}): { r: CliResult; verdict: string | null } {
  const r = s.orchard(["list"], { env: { XDG_CACHE_HOME: cache, ORCHARD_TRACE: "1", ...env } });
  const line = r.stderr.split("\n").find((l) => l.startsWith("[orchard trace] code cache "));
  return { r, verdict: line ? (line.slice("[orchard trace] code cache ".length).split(":")[0] ?? null) : null };
}
const files = (): string[] => readdirSync(join(cache, "orchard")).filter((f) => f.endsWith(".v8"));

describe("the code cache", () => {
  it("is made by the first call, private, and used by the next; the answers are the same", () => {
    s.orchard(["add", "feat-a", "--no-bootstrap"]);
    const first = list();
    expect(first.verdict).toBe("none");
    expect(files()).toHaveLength(1);
    expect(statSync(join(cache, "orchard")).mode & 0o777).toBe(0o700);
    expect(statSync(join(cache, "orchard", files()[0] as string)).mode & 0o777).toBe(0o600);
    const second = list();
    expect(second.verdict).toBe("used");
    expect(second.r.code).toBe(0);
    expect(second.r.json).toEqual(first.r.json);
    expect(second.r.json.worktrees.map((w: { branch: string }) => w.branch)).toContain("feat-a");
  });

  it("the lean bundle's verbs keep a cache each, made by the first call of that verb and used by the next", () => {
    const env = { XDG_CACHE_HOME: cache, ORCHARD_TRACE: "1" };
    const verdict = (r: CliResult): string | undefined => /^\[orchard trace\] code cache (\w+): .*\(orchard-lean\.cjs\)$/m.exec(r.stderr)?.[1];
    const add = s.orchard(["add", "feat-a", "--owner", "agent", "--no-bootstrap"], { env });
    expect(verdict(add)).toBe("none");
    const again = s.orchard(["add", "feat-a", "--owner", "agent"], { env });
    expect(verdict(again)).toBe("used");
    const release = s.orchard(["release", add.json.handle, "--owner", "agent"], { env });
    expect(verdict(release)).toBe("none"); // its own, not the add's
    expect(s.orchard(["remove", add.json.handle], { env }).code).toBe(0);
    expect(files().filter((f) => /-(add|release|remove)-v/.test(f))).toHaveLength(3);
    expect(files().some((f) => /-add-v/.test(f))).toBe(true);
  });

  it("garbage in the file is rejected by V8, the command answers, and the file is made again", () => {
    list();
    const file = join(cache, "orchard", files()[0] as string);
    writeFileSync(file, Buffer.alloc(4096, 7), { mode: 0o600 });
    const rejected = list();
    expect(rejected.verdict).toBe("rejected");
    expect(rejected.r.code).toBe(0);
    expect(rejected.r.json.ok).toBe(true);
    expect(list().verdict).toBe("used");
  });

  it("a file or directory others can write is never read", () => {
    list();
    const file = join(cache, "orchard", files()[0] as string);
    chmodSync(file, 0o666);
    expect(list().verdict).toBe("none"); // not read; made again, private
    expect(statSync(join(cache, "orchard", files()[0] as string)).mode & 0o777).toBe(0o600);
    expect(list().verdict).toBe("used");
    chmodSync(join(cache, "orchard"), 0o777);
    expect(list().verdict).toBe("none");
  });

  it("an unwritable place and NODE_DISABLE_COMPILE_CACHE cost a compile, nothing else", () => {
    writeFileSync(cache, "not a directory"); // $XDG_CACHE_HOME is a file: nothing can be made under it
    const blocked = list();
    expect(blocked.verdict).toBe("none");
    expect(blocked.r.code).toBe(0);
    expect(blocked.r.stderr).not.toMatch(/Error|ENOTDIR/);
    cache = join(s.root, "xdg-cache-2");
    mkdirSync(cache);
    const off = list({ NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(off.r.code).toBe(0);
    expect(off.r.stderr).toContain("code cache none: off");
    expect(readdirSync(cache)).toEqual([]);
  });
});
