// Every file Orchard reads in `<home>/share` is read by the plain-file reader (SPEC v5 §4): a FIFO
// or a link to /dev/zero planted as a kept copy's `ready.json` makes that copy incomplete
// (`share_incomplete`, reclaimed), one planted as a build's `owner.json` leaves the build to the pid
// in its name; `add`, `hygiene`, `cleanup run` and the gsd facade answer at once, never wait on it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Scenario, deadPid, makeFifo } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { ADAPTER } from "../helpers/gsd.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";
import { TRUSTED, installs, setUpShare } from "../helpers/share.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const run = (args: string[]): any => {
  const r = s.orchard(args, { env: TRUSTED });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const store = (): string => join(s.home, "share", "app");

/** The gsd facade's inventory (hygiene underneath), in a process of its own so a hang is a failure, not a stuck test. */
function gsdInventory(): { status: number | null; entries: number } {
  const call = `const r = m.snapshotWorktreeInventory(process.cwd(), {}); process.stdout.write(JSON.stringify(r.entries.length))`;
  const r = spawnSync(process.execPath, ["-e", `const m = require(${JSON.stringify(ADAPTER)}); m.configure({ home: ${JSON.stringify(s.home)} }); ${call}`], {
    cwd: s.primary,
    env: { ...hermeticEnv(), ...TRUSTED },
    encoding: "utf8",
    timeout: PROCESS_TIMEOUT_MS,
  });
  return { status: r.status, entries: Number(r.stdout) };
}

describe("a special file as a kept copy's ready.json", () => {
  for (const [what, plant] of [
    ["a FIFO", (file: string) => makeFifo(file)],
    ["a link to /dev/zero", (file: string) => symlinkSync("/dev/zero", file)],
  ] as const)
    it(`${what}: that copy is share_incomplete; add, hygiene, the gsd facade and cleanup run answer at once`, () => {
      setUpShare(s);
      const a = run(["add", "feat-a"]);
      const key = a.bootstrap.share.key as string;
      const marker = join(store(), key, "ready.json");
      rmSync(marker);
      plant(marker);

      const report = run(["hygiene", "--disk"]);
      expect(report.keptCopies).toEqual([
        expect.objectContaining({ key, disposition: "reclaimable", reasons: [expect.objectContaining({ code: "share_incomplete" })] }),
      ]);
      expect(gsdInventory()).toEqual({ status: 0, entries: 1 }); // feat-a

      const b = run(["add", "feat-b"]);
      expect(b.bootstrap.status).toBe("ran"); // the copy is never used: B installs
      expect(installs(s)).toBe(2);

      const cleaned = run(["cleanup", "run"]);
      expect(cleaned.keptCopies.removed).toEqual([expect.objectContaining({ key, reasons: [expect.objectContaining({ code: "share_incomplete" })] })]);
      expect(existsSync(join(store(), key))).toBe(false);
    });
});

describe("a special file as a build's owner.json", () => {
  it("a FIFO or a link to /dev/zero: the pid in the build's name decides (a dead one is swept, a live one kept), at once", () => {
    setUpShare(s);
    mkdirSync(store(), { recursive: true });
    const dead = join(store(), `.building-${deadPid()}-0badf1f0`);
    const live = join(store(), `.building-${process.pid}-0badf1f1`);
    mkdirSync(dead);
    mkdirSync(live);
    makeFifo(join(dead, "owner.json"));
    symlinkSync("/dev/zero", join(live, "owner.json"));

    const a = run(["add", "feat-a"]);
    expect(a.bootstrap.share).toMatchObject({ action: "kept" });
    expect(readdirSync(store()).sort()).toEqual([".building-" + String(process.pid) + "-0badf1f1", a.bootstrap.share.key].sort());
    expect(run(["cleanup", "run"]).ok).toBe(true);
    expect(existsSync(live)).toBe(true); // its builder (this test) is alive
  });
});
