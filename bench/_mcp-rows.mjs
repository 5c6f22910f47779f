// The warm MCP rows of the per-call table (table.mjs): one MCP server, JSON-RPC over stdio, one
// request at a time; orchard_add (adopt), orchard_heartbeat and orchard_status per call, and the
// steps floor of a warm adopt (_steps-floor.mjs), and floor-mcp-sdk: a server of the same
// SDK that runs a warm adopt's git and nothing else (_mcp-floor-server.mjs). Every row in turn with
// floor-mcp on the fleet as it is then. The table passes what it measures with.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stepsScript } from "./_steps-floor.mjs";

const here = dirname(fileURLToPath(import.meta.url));

/** A client of the MCP server `argv` starts in `cwd`: JSON-RPC over stdio, one request at a time. */
async function client(argv, cwd) {
  const child = spawn(process.execPath, argv, { cwd, stdio: ["pipe", "pipe", "inherit"] });
  let buffer = "";
  const waiting = new Map();
  child.stdout.on("data", (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const message = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(message.id)?.(message);
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((done) => {
      waiting.set(++id, done);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  await request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  const call = async (name, args) => {
    const started = performance.now();
    const r = await request("tools/call", { name, arguments: args });
    const ms = performance.now() - started;
    if (r.error || r.result?.isError) throw new Error(`${name}: ${JSON.stringify(r)}`);
    return { ms, result: JSON.parse(r.result.content[0].text) };
  };
  const close = async () => {
    child.stdin.end();
    await new Promise((done) => child.on("exit", done));
  };
  return { call, close };
}

/** The warm MCP rows, each call in turn with floor-mcp (see the top of this file). */
export async function mcpRows({ CLI, home, primary, RUNS, wanted, rows, say, median, timed }) {
  const { call, close } = await client([CLI, "--home", home, "mcp"], primary);
  const first = await call("orchard_add", { branch: "bench/mcp", owner: "bench" });
  const handle = first.result.handle;
  // the steady state of an agent's loop: what a warm server keeps by file stamps (the program guard,
  // the refs) is kept only once every file it comes from is older than the racy margin (2 s; the
  // branch and the worktree were made just now): the calls before that ask git, as a change does
  await new Promise((resolve) => setTimeout(resolve, 2_200));
  // floor-mcp in turn with each call, on the fleet as it is now (the rows before added worktrees: the listing grew)
  const status = "status --porcelain=v2 -z --branch --untracked-files=all --ignored=matching";
  const floor = () => timed("sh", ["-c", `git worktree list --porcelain -z >/dev/null & git -C "$1" ${status} >/dev/null & wait`, "sh", first.result.path]);
  const paired = async (id, measure, one) => {
    say(`measuring ${id}…`);
    await one();
    floor();
    const a = [];
    const b = [];
    for (let i = 0; i < RUNS; i++) {
      a.push(await one());
      b.push(floor());
    }
    const goal = id.startsWith("mcp-") ? "≤ 1.5× of floor-mcp" : "—";
    rows.push({ id, measure, baseline: "floor-mcp", goal, a: median(a), b: median(b), ratio: median(a.map((x, i) => x / b[i])), runs: RUNS });
  };
  const VS = "vs floor-mcp (its listing and its worktree's status side by side, in turn)";
  for (const [tool, args] of [
    ["orchard_add", { branch: "bench/mcp", owner: "bench" }],
    ["orchard_heartbeat", { target: handle, owner: "bench" }],
    ["orchard_status", { target: handle }],
  ]) {
    const id = `mcp-${tool.slice(8)}`;
    if (wanted(id)) await paired(id, `MCP server, warm: ${tool} per call, ${VS}`, async () => (await call(tool, args)).ms);
  }
  for (const [id, steps, what] of [["floor-mcp-add-steps", "mcp-add", "a warm adopt's git commands in their order"]]) {
    const script = stepsScript(steps, { worktree: first.result.path, branch: "bench/mcp" });
    if (wanted(id)) await paired(id, `floor: ${what}, one shell, ${VS}`, async () => timed("sh", ["-c", script]));
  }
  // a server of the same SDK that runs the warm adopt's git and nothing else (_mcp-floor-server.mjs),
  // and one that also writes and scans what SPEC makes an adopt write and look at (the lock, the
  // processes' cwds, the lease in a SQLite registry and in the lock file)
  const script = stepsScript("mcp-add", { worktree: first.result.path, branch: "bench/mcp" });
  for (const [id, extra, what] of [
    ["floor-mcp-sdk", [], "floor: a server of the same MCP SDK running a warm adopt's git, one shell a call"],
    [
      "floor-mcp-sdk-adopt",
      [join(home, "..", "floor-adopt")],
      "floor: the same server, also taking a lock file, reading every process's cwd and writing the lease (SQLite, the lock file)",
    ],
  ]) {
    if (!(wanted(id) || wanted("mcp-add"))) continue;
    const sdk = await client([join(here, "_mcp-floor-server.mjs"), script, primary, ...extra], primary);
    await paired(id, `${what}, ${VS}`, async () => (await sdk.call("steps", { branch: "bench/mcp", owner: "bench" })).ms);
    await sdk.close();
  }
  await close();
}
