// What the scale benches share: a command's wall and CPU (its waited-for children's too), a small
// repository, interleaved pairs, a row of the table, and the trash's drain.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";

export const say = (line) => process.stderr.write(`${line}\n`);
export const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30 }).trim();
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** CPU ms of this process and its waited-for children (utime + stime + cutime + cstime). */
const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim() || 100);
export function cpuNow() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS;
}
/** Wall and CPU ms of `fn` (synchronous work: spawnSync waits, so the children's CPU counts). */
export function timed(fn) {
  const c = cpuNow();
  const t = performance.now();
  const value = fn();
  return { wall: performance.now() - t, cpu: cpuNow() - c, value };
}
export function run(cwd, cmd, args, input) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"], input, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  return r.stdout;
}
export function makeRepo(dir) {
  const origin = join(dir, "origin.git");
  const primary = join(dir, "app");
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "--bare", "-b", "main", origin);
  git(dir, "init", "-q", "-b", "main", primary);
  mkdirSync(join(primary, "src"));
  for (let i = 0; i < 20; i++) writeFileSync(join(primary, "src", `f${i}.txt`), `line ${i}\n`.repeat(10));
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "initial");
  git(primary, "remote", "add", "origin", origin);
  git(primary, "push", "-q", "-u", "origin", "main");
  git(primary, "remote", "set-head", "origin", "main");
  return primary;
}

export const rows = [];
/** A row: orchard's and git's wall/CPU at `n` items (medians over the pairs, ratio the median of paired ratios). */
export function record(id, n, items, pairs, note = "") {
  const a = pairs.map((p) => p[0]);
  const b = pairs.map((p) => p[1]);
  const r = {
    id,
    n,
    items,
    wall: median(a.map((x) => x.wall)),
    cpu: median(a.map((x) => x.cpu)),
    gitWall: median(b.map((x) => x.wall)),
    gitCpu: median(b.map((x) => x.cpu)),
    ratio: median(a.map((x, i) => x.wall / b[i].wall)),
    cpuRatio: median(a.map((x, i) => x.cpu / Math.max(1, b[i].cpu))),
    runs: pairs.length,
    load: loadavg()[0],
    note,
  };
  rows.push(r);
  say(
    `  ${id} n=${n}: ${Math.round(r.wall)} ms (cpu ${Math.round(r.cpu)}) vs git ${Math.round(r.gitWall)} ms (cpu ${Math.round(r.gitCpu)}) → ${r.ratio.toFixed(2)}×`,
  );
}
/** `runs` interleaved pairs A B, B A, … (the order alternates). */
export function pairs(runs, a, b) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      const x = timed(a);
      out.push([x, timed(b)]);
    } else {
      const y = timed(b);
      out.push([timed(a), y]);
    }
  }
  return out;
}
export function drain(home) {
  const trash = join(home, "trash");
  const started = performance.now();
  while (existsSync(trash) && readdirSync(trash).some((f) => !f.endsWith(".failed"))) {
    if (performance.now() - started > 600_000) throw new Error("the trash did not drain within 10 minutes");
    spawnSync("sleep", ["0.01"]);
  }
  return performance.now() - started;
}
