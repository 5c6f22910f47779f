// A batch of read-only gits forked from this process through one `sh` (run.ts startEarlyBatch):
// forking node blocks its main thread until the child has exec'd, the shell forks the gits for a
// fraction of that. Each git writes to its own pair of pipes and the shell reports its exit code
// after it has exited, so a result is there only once its process is gone. The spawn itself, the
// kill and the bookkeeping of our children are run.ts's (ForkParts), the one place that spawns.
import type { ChildProcess } from "node:child_process";
import { decodeGitBytes } from "./bytes.js";
import { pinnedArgv } from "./input/pin.js";
import { batchResult, msNow, type ProcessResult } from "./result.js";

/** What a batch's processes need of run.ts, the one place that spawns them (a forked batch here, the kept shell: warm/batch-shell.ts). */
export interface BatchParts {
  /** Counts a pid as a child of ours while it runs (ownChildren); returns its release. */
  track(pid: number): () => void;
  /** A directory where a git of ours works (ownShellDirs); returns its release. */
  holdDir(dir: string): () => void;
  trace(result: ProcessResult): void;
  kill(child: ChildProcess): void;
  maxOutput: number;
  timeoutMs: number;
}

/** What a forked batch needs of run.ts. */
export interface ForkParts extends BatchParts {
  /** Spawns `sh -c script` in `cwd`, in its own process group, with `stdio`. */
  spawn(script: string, cwd: string, env: NodeJS.ProcessEnv, stdio: readonly ("ignore" | "pipe")[]): ChildProcess;
}

export interface BatchQuery {
  args: readonly string[];
  cwd: string;
}

const shellQuote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

/** A POSIX shell redirects single-digit fds only: fd 1 carries the exit codes, 2–9 four queries' output. */
const BATCH_FDS = [3, 2, 4, 5, 6, 7, 8, 9] as const;
const outFd = (i: number): number => BATCH_FDS[2 * i]!;
const errFd = (i: number): number => BATCH_FDS[2 * i + 1]!;

/** One `sh` running up to four `queries` side by side, each with its own pair of pipes. Rejects where the shell could not start. */
export function runBatch(queries: readonly BatchQuery[], cwd: string, env: NodeJS.ProcessEnv, parts: ForkParts): Promise<ProcessResult>[] {
  if (queries.length > BATCH_FDS.length / 2) throw new Error(`at most ${BATCH_FDS.length / 2} queries share one shell`);
  const started = msNow();
  const fds = queries.flatMap((_, i) => [outFd(i), errFd(i)]);
  const close = (keep: readonly number[]): string =>
    fds
      .filter((fd) => !keep.includes(fd))
      .map((fd) => `${fd}>&-`)
      .join(" ");
  // each job holds only its own pipes (their end of file is its git's exit) and prints "<i> <exit
  // code>" once its git has exited; the shell itself lets go of every pipe and waits for the jobs
  // a query in another directory runs as `git -C <dir>`: git changes there before anything else
  const argv = (q: BatchQuery): readonly string[] => pinnedArgv(q.args, q.cwd, { via: cwd });
  const jobs = queries.map(
    (q, i) => `{ git ${argv(q).map(shellQuote).join(" ")} >&${outFd(i)} 2>&${errFd(i)}; echo "${i} $?"; } ${close([outFd(i), errFd(i)])} &`,
  );
  const script = `${jobs.join("\n")}\nexec ${close([])}\nwait\n`;
  const stdio = ["ignore", "pipe", ...Array.from({ length: Math.max(...fds) - 1 }, (_, k) => (fds.includes(k + 2) ? "pipe" : "ignore"))] as const;
  const child = parts.spawn(script, cwd, env, stdio);
  const pid = child.pid;
  if (pid !== undefined) child.once("exit", parts.track(pid));
  const timer = setTimeout(() => parts.kill(child), parts.timeoutMs);
  const codes = queries.map(() => {
    let settle!: (code: number | null) => void;
    let fail!: (error: unknown) => void;
    const promise = new Promise<number | null>((resolve, reject) => ((settle = resolve), (fail = reject)));
    return { promise, settle, fail };
  });
  let lines = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    lines += chunk.toString("utf8");
    for (let nl = lines.indexOf("\n"); nl >= 0; nl = lines.indexOf("\n")) {
      const [i, code] = lines.slice(0, nl).split(" ").map(Number);
      lines = lines.slice(nl + 1);
      codes[i!]?.settle(code!);
    }
  });
  child.once("error", (error) => {
    clearTimeout(timer);
    for (const c of codes) c.fail(error);
  });
  child.once("close", () => {
    clearTimeout(timer);
    for (const c of codes) c.settle(null); // killed before it said (the line of a job that did is in already)
  });
  let size = 0;
  const read = (fd: number): Promise<string> =>
    new Promise((resolve) => {
      const got: Buffer[] = [];
      const stream = child.stdio[fd] as NodeJS.ReadableStream | null;
      if (!stream) return resolve("");
      stream.on("data", (part: Buffer) => {
        size += part.length;
        if (size <= parts.maxOutput) got.push(part);
        else parts.kill(child);
      });
      stream.once("close", () => resolve(decodeGitBytes(Buffer.concat(got))));
    });
  const held = queries.map((q) => (q.cwd === cwd ? () => undefined : parts.holdDir(q.cwd)));
  let released = false;
  const release = (): void => {
    if (!released) held.forEach((r) => r());
    released = true;
  };
  child.once("close", release); // every git of the shell has exited by then
  child.once("error", release);
  return queries.map(async (q, i) => {
    const [stdout, stderr, code] = await Promise.all([read(outFd(i)), read(errFd(i)), codes[i]!.promise]);
    const result = batchResult(q, code, { stdout, stderr }, started);
    parts.trace(result);
    return result;
  });
}
