// Starts ./registry-child.ts as a process of its own: another orchard on the same registry. The
// child is bundled from source with esbuild once per test process (no build of dist/ needed),
// as CommonJS with better-sqlite3's JavaScript inside, as the command line's bundle has it (the
// registry imports it lazily); NODE_PATH finds pg and better-sqlite3's addon from the temp dir.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import type { ChildJob } from "./registry-child.js";
import { PROCESS_TIMEOUT_MS, WAIT_TIMEOUT_MS } from "./time.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
let bundle: string | undefined;

function childBundle(): string {
  if (bundle) return bundle;
  const out = join(mkdtempSync(join(tmpdir(), "orchard-registry-child-")), "child.cjs");
  buildSync({
    entryPoints: [join(ROOT, "test/helpers/registry-child.ts")],
    outfile: out,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    external: ["pg"],
    // as the command line's bundle does: the registry resolves better-sqlite3's addon from its own URL
    define: { "import.meta.url": "__childUrl" },
    banner: { js: 'const __childUrl = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: "warning",
  });
  return (bundle = out);
}

export interface ChildLine {
  stage: "opened" | "read" | "done" | "failed";
  seen?: number;
  message?: string;
  code?: string | null;
}

export class RegistryProcess {
  readonly lines: ChildLine[] = [];
  readonly exit: Promise<number | null>;
  private stderr = "";
  private readonly child: ChildProcess;

  constructor(job: ChildJob) {
    this.child = spawn(process.execPath, [childBundle(), JSON.stringify(job)], {
      env: { ...process.env, NODE_PATH: join(ROOT, "node_modules") },
      stdio: ["pipe", "pipe", "pipe"],
      timeout: PROCESS_TIMEOUT_MS,
    });
    let pending = "";
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk;
      for (let at = pending.indexOf("\n"); at >= 0; at = pending.indexOf("\n")) {
        this.lines.push(JSON.parse(pending.slice(0, at)) as ChildLine);
        pending = pending.slice(at + 1);
      }
    });
    this.child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
    this.exit = new Promise((done) => this.child.on("close", (code) => done(code)));
  }

  /** The first line of `stage`, once the child has printed it (a `failed` line throws). */
  async reached(stage: ChildLine["stage"]): Promise<ChildLine> {
    const deadline = Date.now() + WAIT_TIMEOUT_MS;
    for (;;) {
      const failed = this.lines.find((l) => l.stage === "failed");
      if (failed) throw new Error(`the registry child failed: ${failed.message} ${this.stderr}`);
      const line = this.lines.find((l) => l.stage === stage);
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`the registry child did not reach ${stage} within ${WAIT_TIMEOUT_MS} ms: ${this.stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Lets a holding child go on. */
  release(): void {
    this.child.stdin?.write("go\n");
  }

  /** Waits for the exit; throws with the child's output unless it exited 0. */
  async succeeded(): Promise<void> {
    const code = await this.exit;
    if (code !== 0) throw new Error(`the registry child exited ${code}: ${JSON.stringify(this.lines)} ${this.stderr}`);
  }
}
