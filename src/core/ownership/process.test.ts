import { describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProcessCwds, compareStartTime, processesInside, readProcessCwds, readStartTime, unseenDescription, unseenProcesses } from "./process.js";

describe.runIf(process.platform === "linux")("compareStartTime (Linux)", () => {
  it("tells the same process, a reused pid, and a token it cannot read", async () => {
    const ticks = (await readStartTime(process.pid)) as string;
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    const startedMs = Math.round((boot + Number(ticks) / 100) * 1000);
    expect(compareStartTime(ticks, ticks)).toBe("same");
    expect(compareStartTime(String(startedMs), ticks)).toBe("same"); // epoch milliseconds
    expect(compareStartTime(String(Math.round(startedMs / 1000)), ticks)).toBe("same"); // epoch seconds
    expect(compareStartTime("1", ticks)).toBe("different"); // a process started one tick after boot
    expect(compareStartTime(String(startedMs - 3_600_000), ticks)).toBe("different"); // an hour earlier, in ms
    expect(compareStartTime("99999999999999999999", ticks)).toBe("unknown"); // no unit we know
    expect(compareStartTime("Tue Jun  3 10:00:00 2025", ticks)).toBe("unknown");
  });
});

describe("compareStartTime (ps lstart text, macOS)", () => {
  it("the same lstart text is the same process whatever the spacing; Claude Code writes it in UTC, as ps is read", () => {
    expect(compareStartTime("Mon Nov  3 09:15:02 2026", "Mon Nov  3 09:15:02 2026")).toBe("same");
    expect(compareStartTime("Mon Nov 3 09:15:02 2026", "Mon Nov  3 09:15:02 2026")).toBe("same");
  });
});

describe.runIf(process.platform === "linux")("readProcessCwds (a /proc laid out by the test)", () => {
  it("leaves out init and kernel threads that refuse their cwd; counts any other refusing process as unseen", async () => {
    const root = mkdtempSync(join(tmpdir(), "orchard-proc-"));
    const proc = (pid: number, stat: string, cwd: string | null): void => {
      mkdirSync(join(root, String(pid)));
      writeFileSync(join(root, String(pid), "stat"), stat);
      writeFileSync(join(root, String(pid), "comm"), "x\n");
      if (cwd === null)
        writeFileSync(join(root, String(pid), "cwd"), ""); // readlink fails: refused
      else symlinkSync(cwd, join(root, String(pid), "cwd"));
    };
    proc(1, "1 (init) S 0 1 1 0", null);
    proc(77, "77 (kworker/0:1) I 2 0 0 0", null);
    proc(4242, "4242 (agent) S 1 4242 4242 0", null);
    proc(4243, "4243 (shell) S 1 4243 4243 0", "/srv/app");
    const before = process.env.ORCHARD_TEST_PROC_ROOT;
    process.env.ORCHARD_TEST_PROC_ROOT = root;
    try {
      const cwds = (await readProcessCwds()) as Map<number, string>;
      expect([...cwds]).toEqual([[4243, "/srv/app"]]);
      expect(unseenProcesses(cwds)).toBe(1);
      expect(unseenDescription(cwds)).toBe("4242 x");
    } finally {
      if (before === undefined) delete process.env.ORCHARD_TEST_PROC_ROOT;
      else process.env.ORCHARD_TEST_PROC_ROOT = before;
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.platform === "linux")("a git of the kept shell (git/warm/batch-shell.ts) inside a worktree", () => {
  it("is ours, not someone inside; a process of someone else there is", async () => {
    const { dropBatchShell, keepBatchShell, keptShellPid, startEarlyBatch } = await import("../../git/run.js");
    const { dropEarly } = await import("../../git/early-answers.js");
    const { waitFor, liveProcess } = await import("../../../test/helpers/scenario.js");
    const { processesInside } = await import("./process.js");
    const bin = mkdtempSync(join(tmpdir(), "orchard-proc-"));
    const inside = realpathSync(mkdtempSync(join(tmpdir(), "orchard-proc-")));
    // a git that goes where -C says (as git does) and stays until told
    writeFileSync(join(bin, "git"), `#!/bin/sh\ncd "$2" || exit 9\ntouch "${bin}/started"\nwhile [ ! -e "${bin}/stop" ]; do sleep 0.05; done\n`);
    chmodSync(join(bin, "git"), 0o755);
    const path = process.env.PATH;
    keepBatchShell();
    process.env.PATH = `${bin}:${path}`;
    const someone = liveProcess(inside);
    try {
      const batch = startEarlyBatch([{ args: ["status"], cwd: inside }], bin);
      await waitFor(() => existsSync(join(bin, "started")), "the kept shell's git to start");
      const cwds = (await readProcessCwds()) as Map<number, string>;
      const ours = [...cwds].filter(([, cwd]) => cwd === inside).map(([pid]) => pid);
      expect(ours).toContain(someone.pid);
      expect(ours.length).toBeGreaterThan(1); // the git is there too, in the kept shell's group
      expect(processesInside(cwds, inside)).toEqual([someone.pid]);
      expect(keptShellPid()).toBeGreaterThan(0);
      writeFileSync(join(bin, "stop"), "");
      expect((await batch[0]!).exitCode).toBe(0);
    } finally {
      process.env.PATH = path;
      someone.stop();
      dropBatchShell();
      dropEarly();
    }
  });
});

describe("processesInside over a scan (its index of directories)", () => {
  it("answers as comparing every cwd does, in scan order, asked once or many times", () => {
    const cwds = new ProcessCwds();
    const table: [number, string][] = [
      [10, "/srv/fleet/a"],
      [11, "/srv/fleet/a/src/deep"],
      [12, "/srv/fleet/ab"],
      [13, "/srv/fleet/a (deleted)"],
      [14, "/srv//fleet/a"],
      [15, "/"],
      [16, "/srv/fleet/b/"],
      [17, "/srv/fleet/a/x"],
    ];
    for (const [pid, cwd] of table) cwds.set(pid, cwd);
    const plain = new Map(cwds); // a plain map: each cwd compared
    const dirs = ["/srv/fleet/a", "/srv/fleet", "/srv", "/", "/srv/fleet/a/", "", "/srv/fleet/b", "/srv/fleet/ab", "/srv/", "/nowhere", "/srv//fleet"];
    for (let round = 0; round < 3; round++)
      for (const dir of dirs) expect(processesInside(cwds, dir), `${dir} (round ${round})`).toEqual(processesInside(plain, dir));
    expect(processesInside(cwds, "/srv/fleet/a")).toEqual([10, 11, 17]);
    cwds.set(18, "/srv/fleet/a/new"); // a change after the index was built: built again
    expect(processesInside(cwds, "/srv/fleet/a")).toEqual([10, 11, 17, 18]);
    cwds.delete(11);
    expect(processesInside(cwds, "/srv/fleet/a")).toEqual([10, 17, 18]);
    cwds.ours.add(17); // this call's own git there: never inside
    expect(processesInside(cwds, "/srv/fleet/a")).toEqual([10, 18]);
  });
});
