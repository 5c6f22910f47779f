// Every file read from input is a regular file of at most 1 MiB, else exit 2 naming it (SPEC v3
// §4.2; issue 20 item 4): a wave's --manifest from the CLI or from an MCP client (which must not
// wedge the server), and `.orchard.json`. /dev/zero, a FIFO, a directory and a 2 MiB file all get
// the same answer, at once, with nothing changed.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, CLI } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** The hostile inputs, each made at `path`, with the words the refusal must use. */
function hostile(dir: string): { name: string; path: string; says: RegExp }[] {
  const fifo = join(dir, "manifest.fifo");
  execFileSync("mkfifo", [fifo]);
  const directory = join(dir, "manifest.d");
  mkdirSync(directory);
  const big = join(dir, "big.json");
  // valid JSON (an empty wave padded past the limit): only the size rule refuses it
  writeFileSync(big, `[${" ".repeat(2 * 1024 * 1024)}]`);
  return [
    { name: "/dev/zero", path: "/dev/zero", says: /not a regular file/ },
    { name: "a FIFO", path: fifo, says: /not a regular file/ },
    { name: "a directory", path: directory, says: /is a directory/ },
    { name: "a 2 MiB file", path: big, says: /larger than 1 MiB/ },
  ];
}

describe("cleanup-wave --manifest", () => {
  it("/dev/zero, a FIFO, a directory, a 2 MiB file: exit 2 invalid_manifest naming the file, at once", () => {
    for (const input of hostile(s.root)) {
      const r = s.orchard(["cleanup-wave", "--manifest", input.path]);
      expect(r.code, input.name).toBe(2);
      expect(r.json.error.code, input.name).toBe("invalid_manifest");
      expect(r.json.error.message, input.name).toContain(input.path);
      expect(r.json.error.message, input.name).toMatch(input.says);
    }
  });

  it("the MCP tool answers the same and the server keeps serving", async () => {
    const env = hermeticEnv() as Record<string, string>;
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "--home", s.home, "mcp"], cwd: s.primary, env, stderr: "pipe" });
    const client = new Client({ name: "orchard-test", version: "1.0.0" });
    await client.connect(transport, { timeout: PROCESS_TIMEOUT_MS });
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = await client.callTool({ name, arguments: args }, undefined, { timeout: PROCESS_TIMEOUT_MS });
        return JSON.parse((r.content as { text: string }[])[0]?.text ?? "");
      };
      for (const input of hostile(s.root)) {
        const r = await call("orchard_cleanup_wave", { manifest: input.path });
        expect(r, input.name).toMatchObject({ ok: false, error: { code: "invalid_manifest" } });
        expect(r.error.message, input.name).toMatch(input.says);
      }
      expect(await call("orchard_list", {})).toMatchObject({ ok: true });
    } finally {
      await client.close();
    }
  });
});

describe(".orchard.json", () => {
  it("a directory or a 2 MiB file is exit 2 invalid_config naming it", () => {
    const file = join(s.primary, ".orchard.json");
    mkdirSync(file);
    let r = s.orchard(["list"]);
    expect(r.code).toBe(2);
    expect(r.json.error).toMatchObject({ code: "invalid_config" });
    expect(r.json.error.message).toContain(file);
    execFileSync("rmdir", [file]);
    writeFileSync(file, `{}${" ".repeat(2 * 1024 * 1024)}`);
    r = s.orchard(["list"]);
    expect(r.code).toBe(2);
    expect(r.json.error.message).toMatch(/larger than 1 MiB/);
  });
});
