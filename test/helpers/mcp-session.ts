// A real MCP client (the SDK's own) on the real built `orchard mcp` server over stdio, for the
// tests that call tools and compare their answers with the CLI's.
import { expect } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, type Scenario } from "./scenario.js";
import { hermeticEnv } from "./env.js";
import { PROCESS_TIMEOUT_MS } from "./time.js";

export interface Session {
  client: Client;
  stderr: () => string;
  errors: Error[];
  call: (name: string, args?: Record<string, unknown>) => Promise<{ isError: boolean; json: any }>;
}

/** The SDK's own per-request timeout (60 s by default) replaced by the suite's scaled one. */
export const REQUEST = { timeout: PROCESS_TIMEOUT_MS };

/** Starts `orchard --home <home> mcp` in the scenario's primary and connects; every answer's text is checked to be its structuredContent. */
export async function connectMcp(s: Scenario, extraEnv: Record<string, string> = {}): Promise<Session> {
  const env = hermeticEnv(extraEnv) as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "--home", s.home, "mcp"], cwd: s.primary, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const errors: Error[] = [];
  const client = new Client({ name: "orchard-test", version: "1.0.0" });
  await client.connect(transport, REQUEST);
  transport.onerror = (error) => errors.push(error); // after connect: the client installs its own first
  // listed first: the SDK client then validates every structuredContent against its tool's outputSchema
  await client.listTools(undefined, REQUEST);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await client.callTool({ name, arguments: args }, undefined, REQUEST);
    const content = r.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(content[0]?.type).toBe("text");
    const json = JSON.parse(content[0]?.text ?? "");
    expect(r.structuredContent, `${name}: structuredContent is the text's JSON`).toEqual(json);
    expect(r.isError, `${name}: isError is set exactly for the error object`).toBe(json.error !== undefined);
    return { isError: r.isError === true, json };
  };
  return { client, stderr: () => stderr, errors, call };
}
