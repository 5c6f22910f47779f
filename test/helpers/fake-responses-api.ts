// A small stand-in for OpenAI's Responses API on 127.0.0.1, so the real Codex binary runs end to
// end offline: `POST /v1/responses` answers a streamed assistant message (server-sent events:
// response.created, response.output_item.done, response.completed — what Codex 0.171.0 reads).
// A test scripts the answers; each request is kept (its `input` carries what hooks added to the
// context). It serves loopback only, and its lifetime is bounded: `close()` in the test, and an
// unref'd timer that closes it anyway.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ResponsesRequest {
  model: string;
  instructions?: string;
  input: unknown[];
  stream?: boolean;
}

/** Chooses the text of the answer to request `index` (from 0). */
export type ResponsesScript = (request: ResponsesRequest, index: number) => string;

function event(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

/** True when any input item of the request mentions `marker` (e.g. a hook's additional context). */
export function inputMentions(request: ResponsesRequest, marker: string): boolean {
  return JSON.stringify(request.input).includes(marker);
}

export class FakeResponsesApi {
  readonly requests: ResponsesRequest[] = [];

  private constructor(
    private readonly server: Server,
    private readonly script: ResponsesScript,
  ) {}

  static start(script: ResponsesScript = () => "done", lifetimeMs = 10 * 60_000): Promise<FakeResponsesApi> {
    return new Promise((resolve, reject) => {
      let api: FakeResponsesApi;
      const server = createServer((req, res) => api.handle(req, res));
      api = new FakeResponsesApi(server, script);
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(api));
      setTimeout(() => api.close(), lifetimeMs).unref();
    });
  }

  /** The base URL a Codex model provider names (`base_url`). */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || !(req.url ?? "").endsWith("/responses")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { type: "not_found", message: "not served here" } }));
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ResponsesRequest;
      const index = this.requests.push(request) - 1;
      const text = this.script(request, index);
      const id = `resp_${index + 1}`;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      event(res, "response.created", { response: { id } });
      event(res, "response.output_item.done", {
        item: { type: "message", role: "assistant", id: `msg_${index + 1}`, content: [{ type: "output_text", text }] },
      });
      event(res, "response.completed", {
        response: { id, usage: { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 } },
      });
      res.end();
    });
  }
}
