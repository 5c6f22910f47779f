// The floor of a warm MCP call (bench/_mcp-rows.mjs, row floor-mcp-sdk): a server of the same MCP
// SDK and zod as Orchard's, on stdio, with one tool that runs the shell script it was started with
// (a warm adopt's own git, _steps-floor.mjs) and answers. What any Node MCP server built on that SDK
// pays to run those git commands per call; what Orchard costs above it is its own.
import { spawn } from "node:child_process";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const [script, cwd] = process.argv.slice(2);
const server = new McpServer({ name: "orchard-bench-floor", version: "1.0.0" });
server.registerTool("steps", { inputSchema: { branch: z.string(), owner: z.string() } }, async () => {
  const code = await new Promise((done) => spawn("sh", ["-c", script], { cwd, stdio: "ignore" }).on("exit", done));
  return { content: [{ type: "text", text: JSON.stringify({ ok: code === 0 }) }] };
});
await server.connect(new StdioServerTransport());
