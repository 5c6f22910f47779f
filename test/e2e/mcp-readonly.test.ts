// SPEC v5 §3.12: a tool annotated readOnlyHint writes nothing, the registry included. Every such
// tool the server lists is called (with a target where it takes one) and the registry's every
// table is compared before and after; `orchard_hygiene` no longer publishes a host summary
// (orchard_hygiene_fleet, and the CLI's hygiene, do).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Scenario, CLI } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

const REQUEST = { timeout: PROCESS_TIMEOUT_MS };
const require = createRequire(import.meta.url);

/** Every row of every table of the workspace's SQLite registry, as text. */
function dump(file: string): string {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  type Db = { prepare(sql: string): { all(): Record<string, unknown>[] }; close(): void };
  const db: Db =
    major > 22 || (major === 22 && minor >= 13)
      ? new (require("node:sqlite") as { DatabaseSync: new (f: string) => Db }).DatabaseSync(file)
      : new (require("better-sqlite3") as new (f: string, o: object) => Db)(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    return tables.map((t) => `${String(t.name)}: ${JSON.stringify(db.prepare(`SELECT * FROM "${String(t.name)}"`).all())}`).join("\n");
  } finally {
    db.close();
  }
}

let s: Scenario;
let client: Client | undefined;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  s.cleanup();
});

describe("read-only MCP tools write nothing", () => {
  it("the registry is the same before and after every readOnlyHint tool", async () => {
    const a = s.orchard(["add", "feat-ro", "--owner", "agent-1", "--task", "T-5"]).json;
    s.makeDirty(a.path);
    expect(s.orchard(["hygiene"]).code).toBe(0); // the CLI's hygiene publishes: a row exists to be rewritten
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--home", s.home, "mcp"],
      cwd: s.primary,
      env: hermeticEnv() as Record<string, string>,
      stderr: "pipe",
    });
    client = new Client({ name: "orchard-test", version: "1.0.0" });
    await client.connect(transport, REQUEST);
    const tools = (await client.listTools(undefined, REQUEST)).tools.filter((t) => t.annotations?.readOnlyHint === true);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["orchard_hygiene", "orchard_status", "orchard_list", "orchard_path"]));
    const file = join(s.home, "orchard.db");
    for (const tool of tools) {
      const props = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
      const args: Record<string, unknown> = {};
      if ("target" in props) args.target = a.handle;
      if ("disk" in props) args.disk = true;
      const before = dump(file);
      const r = await client.callTool({ name: tool.name, arguments: args }, undefined, REQUEST);
      expect(r.isError, `${tool.name}: ${JSON.stringify(r.content)}`).not.toBe(true);
      expect(dump(file), tool.name).toBe(before);
    }
  });
});
