// The batches of a long-lived process (run.ts startEarlyBatch) through one `sh` it keeps. Forking
// the process itself blocks its main thread while the kernel copies its page tables: 2–4 ms a
// spawn for a warm MCP server (≈ 70 MB of heap and code), on every call, before its git starts.
// The kept shell is small: it forks a batch for a fraction of that. It reads its script from its
// stdin, one batch a line; each git writes into files of a private directory and the batch prints
// "<batch> <query> <exit code>" on the shell's stdout once that git has exited. It is the process's
// child in its own process group (its gits too: a timeout kills the group), it ends with its stdin
// (when this process ends) and removes its directory then. Where it cannot take a batch (a word
// with a line break, an environment it cannot state, a shell that died) the caller forks its own.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { decodeGitBytes } from "../bytes.js";
import { batchResult, type ProcessResult } from "../result.js";
import { pinnedArgv } from "../input/pin.js";
import type { BatchParts, BatchQuery } from "../batch.js";
import { msNow } from "../result.js";

export type { BatchQuery };

/** What the kept shell needs of run.ts, the one place that spawns processes. */
export interface ShellParts extends BatchParts {
  /** Spawns `sh -s` in its own process group with stdin and stdout piped, `env` its environment. */
  spawn(args: readonly string[], env: NodeJS.ProcessEnv): ChildProcess;
}

const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface Pending {
  settle(query: number, code: number | null): void;
  fail(error: Error): void;
  timedOut(): void;
}

/** One kept shell. `run` answers a batch, or null where the caller must fork its own. */
export class BatchShell {
  private child: ChildProcess | null = null;
  private dir = "";
  private env: NodeJS.ProcessEnv = {};
  private next = 0;
  private deaths = 0;
  private readonly pending = new Map<number, Pending>();
  /** Output files are reused by the next batch (the shell's `>` empties them): none made or removed a call. */
  private readonly slots: number[] = [];
  private slotCount = 0;
  private wanted: NodeJS.ProcessEnv | null = null;

  constructor(private readonly parts: ShellParts) {}

  /** Starts the shell now (at a process's start its spawn is cheap), with `env` its environment. */
  start(env: NodeJS.ProcessEnv): boolean {
    this.wanted = env;
    if (this.child || this.deaths >= 3) return this.child !== null;
    let child: ChildProcess;
    try {
      this.dir = mkdtempSync(join(tmpdir(), "orchard-batches-"));
      child = this.parts.spawn(["-s", "--", this.dir], env);
    } catch {
      this.died();
      return false;
    }
    if (child.pid === undefined) {
      child.once("error", () => undefined);
      this.died();
      return false;
    }
    this.child = child;
    this.env = env;
    const untrack = this.parts.track(child.pid);
    let lines = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      lines += chunk.toString("utf8");
      for (let nl = lines.indexOf("\n"); nl >= 0; nl = lines.indexOf("\n")) {
        const [batch, query, code] = lines.slice(0, nl).split(" ");
        lines = lines.slice(nl + 1);
        const pending = this.pending.get(Number(batch));
        if (query === "x") pending?.fail(new Error("the kept shell could not enter the batch's directory"));
        else pending?.settle(Number(query), Number(code));
      }
    });
    const gone = (): void => {
      untrack();
      if (this.child !== child) return;
      this.child = null;
      this.died();
      for (const p of [...this.pending.values()]) p.fail(new Error("the kept shell ended"));
    };
    child.once("exit", gone);
    child.once("error", gone);
    child.stdin!.on("error", gone);
    // the directory goes with the shell, whenever it ends (this process killed too: its stdin closes)
    child.stdin!.write(`trap 'rm -rf -- "$1"' EXIT\n`);
    this.idle();
    return true;
  }

  private died(): void {
    this.deaths++;
    this.slots.length = 0;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = "";
  }

  /** Nothing waits: the shell keeps no process alive (a library caller exits when done). */
  private idle(): void {
    if (this.pending.size > 0) return;
    this.child?.unref();
    (this.child?.stdout as { unref?: () => void } | null)?.unref?.();
    (this.child?.stdin as { unref?: () => void } | null)?.unref?.();
  }

  private busy(): void {
    this.child?.ref();
    (this.child?.stdout as { ref?: () => void } | null)?.ref?.();
  }

  /** The batch's results in the order asked, or null where this shell cannot run it. */
  run(queries: readonly BatchQuery[], cwd: string, env: NodeJS.ProcessEnv): Promise<ProcessResult>[] | null {
    if (!this.child && this.wanted) this.start(this.wanted); // after a timeout killed it (three ends: no more)
    const child = this.child;
    if (!child) return null;
    const setup = this.environment(env);
    if (setup === null) return null;
    const id = ++this.next;
    const slot = this.slots.pop() ?? ++this.slotCount;
    const dir = this.dir;
    const file = (i: number, stream: "out" | "err"): string => join(dir, `${slot}.${i}.${stream}`);
    const jobs = queries.map((q, i) => {
      const argv = pinnedArgv(q.args, q.cwd, { via: cwd });
      return `{ git ${argv.map(quote).join(" ")} >${quote(file(i, "out"))} 2>${quote(file(i, "err"))}; echo "${id} ${i} $?"; } &`;
    });
    // the outer subshell exits at once: the batch is nobody's zombie in the kept shell
    const line = `( ( cd -- ${quote(cwd)} 2>/dev/null || { echo "${id} x"; exit; }; ${setup}${jobs.join(" ")} wait ) & ) </dev/null\n`;
    if (line.indexOf("\n") !== line.length - 1) {
      this.slots.push(slot); // not taken: forked by the caller
      return null;
    }
    const started = msNow();
    const held = queries.map((q) => this.parts.holdDir(q.cwd));
    const codes = queries.map(() => {
      let settle!: (code: number | null) => void;
      let fail!: (error: Error) => void;
      const promise = new Promise<number | null>((resolve, reject) => ((settle = resolve), (fail = reject)));
      promise.catch(() => undefined);
      return { promise, settle, fail, done: false };
    });
    let read = 0;
    const finish = (): void => {
      if (!codes.every((c) => c.done)) return;
      clearTimeout(timer);
      this.pending.delete(id);
      held.forEach((release) => release());
      this.idle();
    };
    // the slot is free once every output was read (a killed batch's files go with their directory)
    const taken = (): void => {
      if (++read === queries.length && dir === this.dir) this.slots.push(slot);
    };
    const timer = setTimeout(() => {
      this.pending.get(id)?.timedOut();
      this.parts.kill(child); // its gits are in its group: the other batches it had are forked anew
    }, this.parts.timeoutMs);
    this.pending.set(id, {
      settle: (i, code) => {
        const c = codes[i];
        if (!c || c.done) return;
        c.done = true;
        c.settle(code);
        finish();
      },
      fail: (error) => {
        for (const c of codes.filter((x) => !x.done)) ((c.done = true), c.fail(error));
        finish();
      },
      timedOut: () => {
        for (const c of codes.filter((x) => !x.done)) ((c.done = true), c.settle(null));
        finish();
      },
    });
    this.busy();
    child.stdin!.write(line);
    return queries.map(async (q, i) => {
      const code = await codes[i]!.promise;
      let stdout = "";
      let stderr = "";
      try {
        if (code !== null) [stdout, stderr] = [this.take(file(i, "out")), this.take(file(i, "err"))];
      } finally {
        taken();
      }
      const result = batchResult(q, code, { stdout, stderr }, started);
      this.parts.trace(result);
      return result;
    });
  }

  /** A git's output (a failure to read it rejects: the caller asks git again on its own). */
  private take(path: string): string {
    const bytes = readFileSync(path);
    if (bytes.length > this.parts.maxOutput) throw new Error(`more than ${this.parts.maxOutput} bytes of output`);
    return decodeGitBytes(bytes);
  }

  /** The shell words that turn the kept shell's environment into `env`, or null where a name cannot be said in sh. */
  private environment(env: NodeJS.ProcessEnv): string | null {
    const unset: string[] = [];
    const set: string[] = [];
    for (const key of Object.keys(this.env)) if (env[key] === undefined) unset.push(key);
    for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== this.env[key]) set.push(`${key}=${quote(value)}`);
    if (![...unset, ...set.map((s) => s.slice(0, s.indexOf("=")))].every((k) => NAME.test(k))) return null;
    return `${unset.length ? `unset ${unset.join(" ")}; ` : ""}${set.length ? `export ${set.join(" ")}; ` : ""}`;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Ends the shell (its stdin closes); for tests and a library caller's close. */
  stop(): void {
    this.child?.stdin?.end();
  }
}
