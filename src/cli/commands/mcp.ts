// `orchard mcp`: the MCP server on stdio. --home and --repo set the defaults of every tool call.
import type { Command } from "commander";
import { globalsOf } from "../run.js";
import { printError } from "../output.js";

export function register(program: Command): void {
  program
    .command("mcp")
    .description("serve the orchard tools to an MCP client on stdio (tools orchard_add, orchard_list, ...)")
    .action(async (_opts: unknown, cmd: Command) => {
      const globals = globalsOf(cmd);
      try {
        const { serveStdio } = await import("../../mcp/server.js"); // the MCP SDK loads for `mcp` only
        await serveStdio({
          ...(globals.home ? { home: globals.home } : {}),
          ...(globals.repo ? { repo: globals.repo } : {}),
          version: program.version() ?? "0.0.0",
        });
      } catch (error) {
        printError(error, { ...globals, json: false }); // stdout belongs to the protocol
      }
    });
}
