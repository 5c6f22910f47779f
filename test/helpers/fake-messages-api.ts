// A small stand-in for the Anthropic Messages API on 127.0.0.1, so the real Claude Code binary runs
// end to end offline: `POST /v1/messages` answers a streamed assistant message. A test scripts the
// turns of the conversation (text, or a tool_use that makes Claude Code call a tool); requests that
// offer no tools (titles, summaries) get a plain text answer. It serves loopback only, and its
// lifetime is bounded: `close()` in the test, and an unref'd timer that closes it anyway.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** An answer: text, a tool call, or `hold` — no answer until the server closes (an agent mid-turn). */
export type Turn = { text: string } | { tool: string; input: Record<string, unknown> } | { hold: true };

export interface MessagesRequest {
  model: string;
  stream?: boolean;
  messages: { role: string; content: unknown }[];
  tools?: { name: string }[];
  system?: unknown;
}

/** Chooses the answer to one request that offers tools; `index` counts those requests from 0. */
export type Script = (request: MessagesRequest, index: number) => Turn;

export function scripted(turns: Turn[]): Script {
  return (_request, index) => turns[index] ?? { text: "done" };
}

function sse(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

/** True when any message of the request mentions `marker` (e.g. the prompt given to a subagent). */
export function mentions(request: MessagesRequest, marker: string): boolean {
  return JSON.stringify(request.messages).includes(marker);
}

function answer(res: ServerResponse, request: MessagesRequest, turn: Exclude<Turn, { hold: true }>, id: string): void {
  const usage = { input_tokens: 1, output_tokens: 1 };
  const block = "text" in turn ? { type: "text", text: turn.text } : { type: "tool_use", id: `toolu_${id}`, name: turn.tool, input: turn.input };
  const stop = "text" in turn ? "end_turn" : "tool_use";
  if (!request.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: `msg_${id}`,
        type: "message",
        role: "assistant",
        model: request.model,
        content: [block],
        stop_reason: stop,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  sse(res, "message_start", {
    message: { id: `msg_${id}`, type: "message", role: "assistant", model: request.model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  if ("text" in turn) {
    sse(res, "content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    sse(res, "content_block_delta", { index: 0, delta: { type: "text_delta", text: turn.text } });
  } else {
    sse(res, "content_block_start", { index: 0, content_block: { type: "tool_use", id: `toolu_${id}`, name: turn.tool, input: {} } });
    sse(res, "content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(turn.input) } });
  }
  sse(res, "content_block_stop", { index: 0 });
  sse(res, "message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } });
  sse(res, "message_stop", {});
  res.end();
}

export class FakeMessagesApi {
  readonly requests: MessagesRequest[] = [];
  private scriptedCount = 0;
  private readonly held: ServerResponse[] = [];
  private served = 0;

  private constructor(
    private readonly server: Server,
    private readonly script: Script,
  ) {}

  static start(script: Script, lifetimeMs = 10 * 60_000): Promise<FakeMessagesApi> {
    return new Promise((resolve, reject) => {
      let api: FakeMessagesApi;
      const server = createServer((req, res) => api.handle(req, res));
      api = new FakeMessagesApi(server, script);
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(api));
      setTimeout(() => api.close(), lifetimeMs).unref();
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** How many requests are being held unanswered. */
  get holding(): number {
    return this.held.length;
  }

  close(): void {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    this.server.close();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || !(req.url ?? "").startsWith("/v1/messages")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "not served here" } }));
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as MessagesRequest;
      if ((req.url ?? "").startsWith("/v1/messages/count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 1 }));
        return;
      }
      this.requests.push(request);
      const id = String(++this.served);
      const turn = request.tools && request.tools.length > 0 ? this.script(request, this.scriptedCount++) : { text: "ok" };
      if ("hold" in turn) this.held.push(res);
      else answer(res, request, turn, id);
    });
  }
}
