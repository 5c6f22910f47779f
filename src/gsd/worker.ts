// The worker thread of the bridge (bridge.ts): one Orchard per workspace, opened on its first call
// and kept for the life of the process, serving every repository through its `repo` option. Each
// call's answer is posted before the caller is woken, so the caller finds it on the port at once.
// The library is loaded on the first call that needs it (the reaper, the wave, the prune, an
// assessed inventory): GSD's read-only calls read git alone and start without it.
import { workerData, type MessagePort } from "node:worker_threads";
import type { Orchard } from "../index.js";
import type { Call, WorkspaceChoice } from "./bridge.js";
import { HANDLERS } from "./handlers.js";
import type { Answer } from "./types.js";

const { port, ready } = workerData as { port: MessagePort; ready: Int32Array };
const opened = new Map<string, Promise<Orchard>>();

/** The Orchard of a workspace (the choice, else ORCHARD_HOME / ORCHARD_REGISTRY, else ~/.orchard). */
export function orchardFor(choice: WorkspaceChoice, repo: string): Promise<Orchard> {
  const home = choice.home ?? process.env.ORCHARD_HOME ?? "";
  const registry = choice.registry ?? process.env.ORCHARD_REGISTRY ?? "";
  const key = `${home}\0${registry}`;
  let orchard = opened.get(key);
  if (!orchard) {
    orchard = import("../index.js").then(({ Orchard }) => Orchard.open({ repo, warm: true, ...(home ? { home } : {}), ...(registry ? { registry } : {}) }));
    opened.set(key, orchard);
    orchard.catch(() => opened.delete(key)); // a failed open is tried again by the next call
  }
  return orchard;
}

async function answer(call: Call): Promise<Answer<unknown>> {
  const handler = HANDLERS[call.method];
  if (!handler) return { ok: false, error: { code: "internal", message: `no handler ${call.method}` } };
  try {
    return { ok: true, value: await handler((repo) => orchardFor(call.workspace, repo), ...call.args) };
  } catch (error) {
    const code = error && typeof error === "object" && "code" in error ? String((error as { code: unknown }).code) : "internal";
    const details = error && typeof error === "object" && "details" in error ? (error as { details: unknown }).details : undefined;
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { code, message, ...(details ? { details: JSON.parse(JSON.stringify(details)) as unknown } : {}) } };
  }
}

// loaded: the caller that started this worker stops waiting for it to start
Atomics.store(ready, 0, 1);
Atomics.notify(ready, 0);

/** Starts the work queued after an answer (the trash a wave or reap filled is purged), as the CLI and MCP server do after each call. */
async function flushAll(): Promise<void> {
  for (const orchard of opened.values()) (await orchard.catch(() => null))?.flushBackground();
}

port.on("message", ({ call, signal }: { call: Call; signal: Int32Array }) => {
  void answer(call)
    .then(async (result) => {
      await flushAll().catch(() => undefined); // deliberate: a purge that cannot start waits for the next command
      return result;
    })
    .then((result) => {
      port.postMessage(result);
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    });
});
