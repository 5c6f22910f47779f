// Issue 48 item 3: what the boundary's checks proved (config vetting, the program guard, a
// `.gitmodules`' paths) is kept in the workspace by each file's identity, so an unchanged
// repository costs a stat per file; a changed or new file is vetted again before it is trusted,
// and a cache that cannot be read is rebuilt, never trusted. Files changed within 2 s of a read
// are never kept (their times could hide a later change), hence the waits below.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const settle = (): Promise<void> => new Promise((done) => setTimeout(done, 2_200)); // past the racy window
/** The git config reads a command ran: the program guard's and each config file's vetting. */
const configReads = (stderr: string): string[] =>
  stderr.split("\n").filter((l) => l.startsWith('[orchard trace] git ["config"') && (l.includes("--show-scope") || l.includes('"--file"')));
const traced = (args: string[]) => s.orchard(args, { env: { ORCHARD_TRACE: "1" } });

describe("the boundary's proofs, kept by file identity", () => {
  it("an unchanged repository is not vetted again; a program setting added after a cached run is still guarded", async () => {
    const w = s.orchard(["add", "feat-a"]).json as { path: string; handle: string };
    // a repository config that names a program key, so its vetting asks git (programs-vet.ts)
    git(s.primary, "config", "filter.lfs.required", "false");
    await settle();
    expect(configReads(traced(["list"]).stderr).length).toBeGreaterThan(0); // proved, and kept
    expect(configReads(traced(["list"]).stderr)).toEqual([]); // a stat per file
    expect(existsSync(join(s.home, "cache", "proofs-guard.json"))).toBe(true);

    const marker = join(s.root, "fsmonitor-ran");
    const script = join(s.root, "fsmonitor.sh");
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\nexit 0\n`);
    chmodSync(script, 0o755);
    git(s.primary, "config", "core.fsmonitor", script); // a new file (git writes through a lock and a rename)
    const after = traced(["status", w.handle]);
    expect(after.code, after.stderr).toBe(0);
    expect(configReads(after.stderr).length).toBeGreaterThan(0); // read again
    expect(traced(["list", "--full"]).code).toBe(0);
    expect(existsSync(marker)).toBe(false); // guarded: the program never ran
  });

  it("a cache that cannot be read is rebuilt, never trusted", async () => {
    s.orchard(["add", "feat-b"]);
    await settle();
    expect(s.orchard(["list"]).code).toBe(0);
    const file = join(s.home, "cache", "proofs-guard.json");
    writeFileSync(file, "{ not json");
    const r = traced(["list"]);
    expect(r.code, r.stderr).toBe(0);
    expect(configReads(r.stderr).length).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(file, "utf8")).entries).toBeTypeOf("object"); // written anew
  });
});
