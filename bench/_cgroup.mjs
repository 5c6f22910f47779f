// The CPU of a call and of every process it starts, detached ones included (Orchard's removals answer and
// leave the deletion of the tree to a detached purger, which /proc's waited-for accounting never sees).
// A cgroup of this run's own (as root: cgroup v1 `cpuacct`, else cgroup v2, whose `cpu.stat` is there
// without any controller): `sh -c 'echo $$ > <cgroup>/cgroup.procs && exec "$@"' <command>` puts the call
// in before it starts; `call` then waits until cgroup.procs is empty (every process the call started has
// ended) and reads the group's CPU (cpuacct.usage, ns; usage_usec). The wrapper's own shell (measured at
// the start, ≈ 1 ms, the same for every call) is subtracted. Wall time is until the command answers: the
// purge is outside it, but no call returns before its purge has ended, so one call's purge never lands in
// the next call's time. Where no cgroup can be made, `counter` warns loudly, `counted` is false (a row's
// label says "purge NOT counted") and each call waits for the trash of `home` to drain instead.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { cpuNow, drain, median, say } from "./_measure.mjs";

const sleepMs = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A cgroup of this run's own: { kind, dir, usage() (ms) }, removed at exit; null where none can be made. */
function makeCgroup() {
  if (process.platform !== "linux") return null;
  const name = `orchard-bench-${process.pid}`;
  const v2 = (dir) => Number(/^usage_usec (\d+)$/m.exec(readFileSync(join(dir, "cpu.stat"), "utf8"))?.[1]) / 1e3;
  const kinds = [
    ["cgroup v1 cpuacct", "/sys/fs/cgroup/cpuacct", "cpuacct.usage", (dir) => Number(readFileSync(join(dir, "cpuacct.usage"), "utf8")) / 1e6],
    ["cgroup v2", "/sys/fs/cgroup", "cgroup.controllers", v2],
    ["cgroup v2", "/sys/fs/cgroup/unified", "cgroup.controllers", v2],
  ];
  for (const [kind, top, marker, usage] of kinds) {
    if (!existsSync(join(top, marker))) continue;
    const dir = join(top, name);
    try {
      mkdirSync(dir);
      if (!Number.isFinite(usage(dir))) throw new Error(`${dir}: no CPU usage to read`);
      process.on("exit", () => {
        try {
          rmdirSync(dir);
        } catch {
          say(`note: ${dir} could not be removed (a process of the bench still in it?)`);
        }
      });
      return { kind, dir, usage: () => usage(dir) };
    } catch (error) {
      say(`note: no ${kind} group (${error.message})`);
    }
  }
  return null;
}

/** Waits until no process is left in the group. */
function emptied(cg, what) {
  const procs = join(cg.dir, "cgroup.procs");
  const started = performance.now();
  while (readFileSync(procs, "utf8").trim() !== "") {
    if (performance.now() - started > 600_000) throw new Error(`${cg.dir}: processes of ${what} still run after 10 minutes`);
    sleepMs(2);
  }
}

/**
 * The counter of `rows` (a label for the warning). `enabled` false (e.g. `--no-cgroup`): as where no cgroup
 * can be made. Returns { counted, kind, wrapperMs, label, call(cwd, cmd, args, { input, anyExit, home }) →
 * { wall, cpu, settled, status, stdout, stderr } }: `cpu` is every process the call started (the cgroup), or only
 * the waited-for ones (then the call waits for `home`'s trash to drain, not counted); `settled` is the ms from the
 * answer until the last of them (or the drain) ended.
 */
export function counter(rows, enabled = true) {
  const cg = enabled ? makeCgroup() : null;
  let wrapperMs = 0;
  if (cg !== null) {
    wrapperMs = median(
      Array.from({ length: 21 }, () => {
        const before = cg.usage();
        const r = spawnSync("/bin/sh", ["-c", 'echo $$ > "$0"', join(cg.dir, "cgroup.procs")], { stdio: "ignore" });
        if (r.status !== 0) throw new Error(`cannot enter ${cg.dir}`);
        emptied(cg, "the wrapper");
        return cg.usage() - before;
      }),
    );
    say(
      `${rows}: every process a call starts, detached ones included, counted in ${cg.dir} (${cg.kind}); the wrapper's ${wrapperMs.toFixed(2)} ms a call subtracted`,
    );
  } else
    say(
      `\n*** WARNING: no cgroup could be made (not Linux, not root, no cgroup file system, or --no-cgroup): ${rows} count only the\n` +
        "*** waited-for processes. Orchard's detached purger (the deletion of the tree) is NOT counted; a baseline's inline deletion is.\n",
    );
  const call = (cwd, cmd, args, { input, anyExit = false, home } = {}) => {
    const options = { cwd, encoding: "utf8", input, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"], maxBuffer: 1 << 30 };
    const before = cg === null ? cpuNow() : cg.usage();
    const started = performance.now();
    const r =
      cg === null
        ? spawnSync(cmd, args, options)
        : spawnSync("/bin/sh", ["-c", 'echo $$ > "$0" && exec "$@"', join(cg.dir, "cgroup.procs"), cmd, ...args], options);
    const wall = performance.now() - started;
    if (r.status !== 0 && !anyExit) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${String(r.stderr).slice(0, 2000)}`);
    if (cg !== null) emptied(cg, `${cmd} ${args.join(" ")}`);
    const cpu = cg === null ? cpuNow() - before : cg.usage() - before - wrapperMs;
    if (cg === null && home !== undefined) drain(home); // not counted: it sleeps in a child of its own
    return { wall, cpu, settled: performance.now() - started - wall, status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const label = cg === null ? "purge NOT counted (no cgroup)" : "the purge included (cgroup)";
  return { counted: cg !== null, kind: cg === null ? "proc" : cg.kind, wrapperMs, label, call };
}
