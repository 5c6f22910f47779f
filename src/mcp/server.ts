// `orchard mcp` (SPEC §3.12): a Model Context Protocol server on stdio. A thin adapter: each call
// runs one method of the library and answers with one text content holding the same JSON object
// as the CLI's --json, and that object again as `structuredContent` (each tool lists its
// `outputSchema` and `annotations`). A refusal is a result (`isError` false, `ok: false` in the
// structure); only the error object (bad input, a failure: the CLI's exit 2 and 1) sets `isError`. The server keeps one library object open for its whole life (one registry
// connection; each repo resolved once and reused while its stamp holds, see Orchard.context) and
// starts the work queued after each answer (trash purge, index refresh). Nothing else may reach
// stdout: the protocol owns it, so every other write to process.stdout is sent to stderr.
//
// The low-level `Server` is used instead of `McpServer` on purpose: McpServer validates inputs
// itself and answers a bad argument with plain text, while our contract is the JSON error object.
import { Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Orchard } from "../core/orchard.js";
import { errorResult } from "../core/shared/errors.js";
import { parseInput } from "../core/shared/input/inputs.js";
import { findTool, inputJsonSchema, outputSchema, TOOLS, type Tool } from "./tools.js";
import { readClientProcess, type ClientProcess } from "../core/ownership/index.js";
import { withClientPid } from "./client.js";
import { withArgumentNames } from "./messages.js";
import { withNext } from "../core/next/index.js";

/** What a client is told once, at initialize: how to use the tools and read their results. */
export const INSTRUCTIONS = [
  "Orchard keeps the git worktrees of parallel agents safe, reusable and clean.",
  "Start work with orchard_add (pass task and owner), renew long work with orchard_heartbeat, end it with orchard_release.",
  "Every result is JSON with ok; a refusal is ok: false with reasons. Each reason has code, message and next:",
  'the tool call that moves it on (e.g. orchard_cleanup_run {"include":"needs_salvage","salvage":true}),',
  "a command for a person (orchard trust, git …) where no tool does it, or null when only waiting or a decision does.",
  "orchard_explain says what a code or a disposition means. orchard_hygiene is read-only; orchard_cleanup_plan/apply/run act on its backlog",
  "and never lose uncommitted or unpushed work. Nothing here approves the repository's own commands: a person runs orchard trust.",
].join(" ");

export interface ServeOptions {
  /** The workspace (default: ORCHARD_HOME or ~/.orchard). */
  home?: string;
  /** The repository a call means when it names none (default: the server's cwd). */
  repo?: string;
  /** The process the server serves: the default pid of every lease a tool writes (null: none). */
  client?: ClientProcess | null;
  version: string;
}

type JsonResult = { ok: boolean; error?: unknown };

/** The library object a server shares between its calls, opened at the first call. */
export class Session {
  private opened: Promise<Orchard> | null = null;

  constructor(private readonly options: Omit<ServeOptions, "version">) {}

  get client(): ClientProcess | null {
    return this.options.client ?? null;
  }

  open(): Promise<Orchard> {
    this.opened ??= Orchard.open({
      warm: true,
      ...(this.options.repo ? { repo: this.options.repo } : {}),
      ...(this.options.home ? { home: this.options.home } : {}),
    });
    this.opened.catch(() => (this.opened = null)); // a failed open is tried again by the next call
    return this.opened;
  }

  /** Drops the library object after its registry connection broke: the next call opens a new one. */
  async reopenAfter(error: unknown): Promise<void> {
    if ((error as { code?: unknown }).code === "registry_unreachable") await this.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = null;
    if (opened) await (await opened.catch(() => null))?.close();
  }
}

/** Runs one tool call. Never throws: every failure is the JSON error object. */
export async function callTool(tool: Tool, args: unknown, session: Session): Promise<JsonResult> {
  let orchard: Orchard | undefined;
  try {
    const { repo, ...rest } = parseInput(tool.input, await withClientPid(tool, args ?? {}, session.client)) as { repo?: string };
    if (tool.method === null) return (await tool.local?.(rest)) ?? { ok: false };
    orchard = await session.open();
    const method = orchard[tool.method] as (this: Orchard, input: object) => Promise<JsonResult>;
    // each reason's next step, spelt as the tool call that takes it (a person's command where no tool does)
    return withNext(tool.method, rest, await method.call(orchard, repo === undefined ? rest : { ...rest, repo }), "mcp");
  } catch (error) {
    await session.reopenAfter(error);
    const result = errorResult(error);
    return { ...result, error: { ...result.error, message: withArgumentNames(result.error.message, tool) } };
  } finally {
    orchard?.flushBackground();
  }
}

function toContent(result: JsonResult): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(result) }],
    structuredContent: result as Record<string, unknown>,
    isError: result.error !== undefined,
  };
}

/** The server, and the calls still running (answered before the server closes). */
export function createServer(options: ServeOptions): { server: Server; running: Set<Promise<unknown>>; session: Session } {
  const server = new Server({ name: "orchard", version: options.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const running = new Set<Promise<unknown>>();
  const session = new Session(options);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.annotations.title,
      description: t.description,
      inputSchema: inputJsonSchema(t),
      outputSchema: outputSchema(t),
      annotations: t.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = findTool(request.params.name);
    if (!tool) return toContent({ ok: false, error: { code: "unknown_tool", message: `no tool named ${request.params.name}` } });
    const call = callTool(tool, request.params.arguments, session);
    running.add(call);
    try {
      return toContent(await call);
    } finally {
      running.delete(call);
    }
  });
  return { server, running, session };
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
  const { server, running, session } = createServer({ client: await readClientProcess(), ...options });
  const transport = new StdioServerTransport(process.stdin, guardStdout());
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // the client hung up: answer what is running (a mutation is never cut short), then stop
    process.stdin.once("end", () => void drain(running).then(() => server.close()));
  });
  await server.connect(transport);
  await closed;
  await session.close();
}
