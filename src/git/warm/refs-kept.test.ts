// A warm process's kept `for-each-ref` answers (refs-kept.ts) are git's answer now: given again only
// while nothing they were read from changed, and asked of git again after any change — a push, an
// edit in place that keeps the size and the modification time, a ref in a new directory, packed
// refs, an upstream set in the config, another environment — and never kept within the racy margin or
// past MAX_ENTRIES loose refs. A replace ref changes nothing (Orchard's git never follows one, SPEC v5
// §4): still kept. git's own for-each-ref, run at that moment with replace objects off, is the
// oracle; the trace tells whether git ran.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git as gitIn } from "../../../test/helpers/scenario.js";
import { makeProcessEnvHermetic } from "../../../test/helpers/env.js";
import { dropBatchShell, git, keepBatchShell } from "../run.js";
import { refsArgs, startSnapshotReads } from "../early.js";
import { dropEarly } from "../early-answers.js";
import { forgetRefs } from "./refs-kept.js";
import { forgetGuards } from "./guard-cache.js";
import { readProgramGuard } from "../programs/read.js";

const PATTERNS = ["refs/heads/feat", "refs/heads/main", "refs/remotes", "refs/heads/master"];
const CASES = ["control", "push", "in-place", "new-dir", "packed", "upstream", "replace", "environment", "many"] as const;
type Case = (typeof CASES)[number];
const repos = new Map<Case, { primary: string; common: string }>();

function makeRepo(name: string): { primary: string; common: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `orchard-refs-${name}-`)));
  const primary = join(root, "app");
  gitIn(root, "init", "-q", "--bare", "-b", "main", join(root, "origin.git"));
  gitIn(root, "init", "-q", "-b", "main", primary);
  const commit = (what: string) => {
    writeFileSync(join(primary, `${what}.txt`), `${what}\n`);
    gitIn(primary, "add", "-A");
    gitIn(primary, "commit", "-q", "-m", what);
  };
  commit("base");
  gitIn(primary, "remote", "add", "origin", join(root, "origin.git"));
  gitIn(primary, "push", "-q", "-u", "origin", "main");
  gitIn(primary, "remote", "set-head", "origin", "main");
  gitIn(primary, "switch", "-q", "-c", "feat");
  commit("pushed");
  gitIn(primary, "push", "-q", "-u", "origin", "feat");
  commit("ahead");
  gitIn(primary, "switch", "-q", "main");
  return { primary, common: join(primary, ".git") };
}

let trace = "";
const write = process.stderr.write.bind(process.stderr);
const traceBefore = process.env.ORCHARD_TRACE;

/** The snapshot's refs query as a warm process asks it: started early (or given kept), then taken by git(). */
async function ask(c: Case): Promise<{ stdout: string; ran: boolean }> {
  const { primary, common } = repos.get(c)!;
  await readProgramGuard(primary, common); // as every call does first (Orchard.context)
  const before = trace.length;
  startSnapshotReads(primary, { listing: false, refs: PATTERNS, commonDir: common });
  const r = await git(refsArgs(PATTERNS), { cwd: primary });
  dropEarly();
  return { stdout: r.stdout, ran: trace.slice(before).includes('"for-each-ref"') };
}
const oracle = (c: Case, env: Record<string, string> = {}): string => {
  const { primary } = repos.get(c)!;
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return gitIn(primary, "--no-replace-objects", ...refsArgs(PATTERNS)) + "\n";
  } finally {
    for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k];
  }
};

beforeAll(async () => {
  makeProcessEnvHermetic();
  forgetRefs();
  forgetGuards();
  keepBatchShell();
  process.env.ORCHARD_TRACE = "1";
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (String(chunk).startsWith("[orchard trace]")) trace += String(chunk);
    else return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    return true;
  }) as typeof process.stderr.write;
  for (const c of CASES) repos.set(c, makeRepo(c));
  const many = repos.get("many")!;
  const head = gitIn(many.primary, "rev-parse", "HEAD");
  for (let i = 0; i < 300; i++) writeFileSync(join(many.common, "refs", "remotes", "origin", `r${i}`), `${head}\n`);
  // older than the racy margin: every file of every repository, and the hermetic global config
  const settled = Date.now() + 2_200;
  while (Date.now() < settled) await new Promise((resolve) => setTimeout(resolve, 100));
}, 120_000);

afterAll(() => {
  process.stderr.write = write;
  if (traceBefore === undefined) delete process.env.ORCHARD_TRACE;
  else process.env.ORCHARD_TRACE = traceBefore;
  dropBatchShell();
  forgetRefs();
  forgetGuards();
});

describe("kept refs of a warm process", () => {
  it("are git's answer, given again while nothing they came from changed, and asked again after any change", async () => {
    for (const c of CASES) {
      const first = await ask(c);
      expect(first, c).toEqual({ stdout: oracle(c), ran: true });
      const second = await ask(c);
      expect(second, c).toEqual({ stdout: oracle(c), ran: c === "many" }); // past MAX_ENTRIES loose refs: never kept
    }
    const g = (c: Case, ...args: string[]) => gitIn(repos.get(c)!.primary, ...args);
    // a push: the remote-tracking ref and the branch rewritten (lock file and rename)
    expect(oracle("push")).toContain("[ahead 1]");
    g("push", "push", "-q", "origin", "feat");
    // an edit in place of a loose ref, to an id of the same length, its modification time put back
    const loose = join(repos.get("in-place")!.common, "refs", "remotes", "origin", "feat");
    const before = statSync(loose, { bigint: true });
    writeFileSync(loose, `${g("in-place", "rev-parse", "main")}\n`);
    // the modification time put back to the nanosecond (touch does what utimes' float seconds cannot)
    const ns = String(before.mtimeNs % 1_000_000_000n).padStart(9, "0");
    execFileSync("touch", ["-m", "-d", `@${before.mtimeNs / 1_000_000_000n}.${ns}`, loose]);
    const after = statSync(loose, { bigint: true });
    expect([after.size, after.ino, after.mtimeNs]).toEqual([before.size, before.ino, before.mtimeNs]);
    g("new-dir", "update-ref", "refs/remotes/upstream/x", g("new-dir", "rev-parse", "main"));
    g("packed", "pack-refs", "--all");
    g("upstream", "config", "branch.feat.merge", "refs/heads/main");
    g("replace", "replace", g("replace", "rev-parse", "feat"), g("replace", "rev-parse", "main"));
    for (const c of CASES.filter((x) => x !== "environment" && x !== "many")) {
      const after = await ask(c);
      expect(after, c).toEqual({ stdout: oracle(c), ran: c !== "control" && c !== "replace" });
    }
    expect(oracle("push")).not.toContain("[ahead"); // the push moved the tracking ref: git's count, through the kept path too
    // another environment for the same repository
    process.env.ORCHARD_REFS_PROBE = "1";
    try {
      expect(await ask("environment")).toEqual({ stdout: oracle("environment"), ran: true });
    } finally {
      delete process.env.ORCHARD_REFS_PROBE;
    }
    // changed within the racy margin: asked of git each time, never kept
    expect((await ask("push")).ran).toBe(true);
    expect((await ask("push")).ran).toBe(true);
    // past MAX_ENTRIES the loose refs are not stamped on each call; packed (git's gc does it), they are again
    g("many", "pack-refs", "--all");
    const settled = Date.now() + 2_200;
    while (Date.now() < settled) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await ask("many")).toEqual({ stdout: oracle("many"), ran: true });
    expect(await ask("many")).toEqual({ stdout: oracle("many"), ran: false });
  }, 60_000);
});
