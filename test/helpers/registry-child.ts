// A second process on one registry (bundled and started by ./registry-process.ts). argv[2] is a
// JSON ChildJob; the child prints one JSON line per stage on stdout and exits 0 when done.
//   open:  opens the registry (running any migrations) and closes it.
//   claim: in one write under the lock `lock`, counts the fleet's `created` events, reports the
//          count, waits for a line on stdin when `hold`, and appends a `created` event if it saw none.
import { createInterface } from "node:readline";
import { Registry } from "../../src/registry/index.js";

export interface ChildJob {
  mode: "open" | "claim";
  home: string;
  url: string | null;
  host: string;
  lock?: string;
  hold?: boolean;
}

const say = (line: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
const input = createInterface({ input: process.stdin });
const nextLine = (): Promise<string> => new Promise((done) => input.once("line", done));

async function main(job: ChildJob): Promise<void> {
  const registry = await Registry.open({ home: job.home, url: job.url, host: job.host }, { canonicalTask: (task) => task });
  say({ stage: "opened" });
  if (job.mode === "claim") {
    const seen = await registry.write(
      async () => {
        const count = await registry.events.count(null, "created", "fleet");
        say({ stage: "read", seen: count });
        if (job.hold) await nextLine();
        if (count === 0) await registry.events.append({ kind: "created", repo: "r", handle: `h-${process.pid}`, task: "t", owner: null, data: {} });
        return count;
      },
      job.lock === undefined ? {} : { lock: job.lock },
    );
    say({ stage: "done", seen });
  }
  await registry.close();
  input.close();
}

main(JSON.parse(process.argv[2] ?? "{}") as ChildJob).catch((error: unknown) => {
  say({ stage: "failed", message: String(error), code: (error as { code?: unknown }).code ?? null });
  process.exitCode = 1;
  input.close();
});
