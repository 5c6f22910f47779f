// A real MCP client on a warm `orchard mcp` server whose trace (ORCHARD_TRACE=1) the test reads:
// the tests of what a long-lived server keeps between calls count the git commands each call ran.
import { afterEach, beforeEach } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, Scenario } from "./scenario.js";
import { hermeticEnv } from "./env.js";
import { PROCESS_TIMEOUT_MS } from "./time.js";

const REQUEST = { timeout: PROCESS_TIMEOUT_MS };

export interface TracedServer {
  client: Client;
  /** One tool call's parsed JSON answer. */
  call(name: string, args: Record<string, unknown>): Promise<any>; // tests read arbitrary fields of the answer
  /** The trace lines so far that contain `fragment`. */
  traced(fragment: string): number;
}

/** Starts `orchard --home <home> mcp` in `cwd` with its trace on and connects a client to it. */
export async function tracedServer(home: string, cwd: string): Promise<TracedServer> {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "--home", home, "mcp"],
    cwd,
    env: hermeticEnv({ ORCHARD_TRACE: "1" }) as Record<string, string>,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "orchard-test", version: "1.0.0" });
  await client.connect(transport, REQUEST);
  return {
    client,
    call: async (name, args) => {
      const r = await client.callTool({ name, arguments: args }, undefined, REQUEST);
      return JSON.parse((r.content as { text: string }[])[0]!.text);
    },
    traced: (fragment) => stderr.split("\n").filter((line) => line.includes(fragment)).length,
  };
}

/**
 * A scenario for each test of the file and the traced servers the test opened on it (`open`: a
 * server in the scenario's primary), closed and cleaned up after it.
 */
export function tracedScenarios(): { scenario: () => Scenario; open: () => Promise<TracedServer> } {
  let s: Scenario | undefined;
  const opened: TracedServer[] = [];
  beforeEach(() => {
    s = Scenario.create();
  });
  afterEach(async () => {
    for (const server of opened.splice(0)) await server.client.close();
    s?.cleanup();
  });
  const scenario = (): Scenario => s as Scenario;
  return {
    scenario,
    open: async () => {
      const server = await tracedServer(scenario().home, scenario().primary);
      opened.push(server);
      return server;
    },
  };
}
