// `orchard mcp` (SPEC §3.12): a Model Context Protocol server on stdio. A thin adapter: each call
// opens the library for the workspace, runs one method, closes it, and answers with one text
// content holding the same JSON object as the CLI's --json. Nothing else may reach stdout: the
// protocol owns it, so every other write to process.stdout is sent to stderr while serving.
//
// The low-level `Server` is used instead of `McpServer` on purpose: McpServer validates inputs
// itself and answers a bad argument with plain text, while our contract is the JSON error object.
import { Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Orchard } from "../core/orchard.js";
import { errorResult } from "../core/shared/errors.js";
import { parseInput } from "../core/shared/inputs.js";
import { findTool, inputJsonSchema, TOOLS, type Tool } from "./tools.js";

export interface ServeOptions {
  /** The workspace (default: ORCHARD_HOME or ~/.orchard). */
  home?: string;
  /** The repository a call means when it names none (default: the server's cwd). */
  repo?: string;
  version: string;
}

type JsonResult = { ok: boolean; error?: unknown };

/** Runs one tool call. Never throws: every failure is the JSON error object. */
export async function callTool(tool: Tool, args: unknown, options: Omit<ServeOptions, "version">): Promise<JsonResult> {
  let orchard: Orchard | undefined;
  try {
    const { repo, ...rest } = parseInput(tool.input, args ?? {}) as { repo?: string };
    const target = repo ?? options.repo;
    orchard = await Orchard.open({ ...(target ? { repo: target } : {}), ...(options.home ? { home: options.home } : {}) });
    const method = orchard[tool.method] as (this: Orchard, input: object) => Promise<JsonResult>;
    return await method.call(orchard, rest);
  } catch (error) {
    return errorResult(error);
  } finally {
    await orchard?.close();
  }
}

function toContent(result: JsonResult): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(result) }], ...(result.error ? { isError: true } : {}) };
}

/** The server, and the calls still running (answered before the server closes). */
export function createServer(options: ServeOptions): { server: Server; running: Set<Promise<unknown>> } {
  const server = new Server({ name: "orchard", version: options.version }, { capabilities: { tools: {} } });
  const running = new Set<Promise<unknown>>();
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: inputJsonSchema(t) })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = findTool(request.params.name);
    if (!tool) return toContent({ ok: false, error: { code: "unknown_tool", message: `no tool named ${request.params.name}` } });
    const call = callTool(tool, request.params.arguments, options);
    running.add(call);
    try {
      return toContent(await call);
    } finally {
      running.delete(call);
    }
  });
  return { server, running };
}

/** Sends every stray write to stdout to stderr; returns the one stream the protocol may use. */
function guardStdout(): Writable {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      write(chunk, (error) => done(error ?? undefined));
    },
  });
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Resolves once no call is running and the answers of the finished ones have been sent. */
async function drain(running: Set<Promise<unknown>>): Promise<void> {
  await nextTurn(); // requests read with the last chunk start in the turn after "end"
  while (running.size > 0) {
    await Promise.allSettled(running);
    await nextTurn();
  }
}

/** Serves on stdin/stdout until the client closes stdin. */
export async function serveStdio(options: ServeOptions): Promise<void> {
  const { server, running } = createServer(options);
  const transport = new StdioServerTransport(process.stdin, guardStdout());
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // the client hung up: answer what is running (a mutation is never cut short), then stop
    process.stdin.once("end", () => void drain(running).then(() => server.close()));
  });
  await server.connect(transport);
  await closed;
}
