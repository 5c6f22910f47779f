import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnWaited } from "./run-sync.js";
import { waitFor } from "../../test/helpers/scenario.js";
import { alive } from "../../test/helpers/scratch.js";

const base = { env: process.env, input: "", shell: false, maxOutput: 1024 * 1024 };

describe("a process waited for (runProcess after waitForEachProcess)", () => {
  it("gives its exit code, output and input as runProcess does, in a session of its own", () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-run-sync-"));
    const w = spawnWaited("sh", ["-c", 'cat; echo "$(ps -o sid= -p $$ | tr -d " ") $$" >&2; exit 3'], { ...base, cwd: dir, timeoutMs: 60_000, input: "in" });
    expect(w).toMatchObject({ exitCode: 3, signal: null, timedOut: false });
    expect(w.stdout.toString()).toBe("in");
    const [sid, pid] = w.stderr.toString().trim().split(" ");
    expect(sid).toBe(pid); // its own session, as runProcess's detached spawn
  });

  it("kills it and the rest of its group at the timeout, and says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-run-sync-"));
    const pidFile = join(dir, "pid");
    const w = spawnWaited("sh", ["-c", `sleep 600 & echo $! > ${pidFile}; wait`], { ...base, cwd: dir, timeoutMs: 300 });
    expect(w).toMatchObject({ exitCode: null, signal: "SIGKILL", timedOut: true });
    const child = Number(readFileSync(pidFile, "utf8"));
    await waitFor(() => !alive(child)); // the sleep its shell started is gone too
  });

  it("kills it past the output limit, not as a timeout", () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-run-sync-"));
    const w = spawnWaited("sh", ["-c", "yes"], { ...base, cwd: dir, timeoutMs: 60_000, maxOutput: 4096 });
    expect(w).toMatchObject({ exitCode: null, signal: "SIGKILL", timedOut: false });
  });

  it("throws where the program cannot start, as runProcess rejects", () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-run-sync-"));
    expect(() => spawnWaited("no-such-program-orchard", [], { ...base, cwd: dir, timeoutMs: 60_000 })).toThrow(/ENOENT/);
  });
});
