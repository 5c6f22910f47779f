// The warm MCP rows of the per-call table (table.mjs): one MCP server, JSON-RPC over stdio, one
// request at a time; orchard_add (adopt), orchard_heartbeat and orchard_status per call, and the
// steps floors of a warm adopt and heartbeat (_steps-floor.mjs). The table passes what it measures with.
import { spawn } from "node:child_process";
import { stepsScript } from "./_steps-floor.mjs";

/** A warm MCP server: JSON-RPC over stdio, one request at a time. */
export async function mcpRows({ CLI, home, primary, RUNS, wanted, rows, say, median, timed }) {
  const child = spawn(process.execPath, [CLI, "--home", home, "mcp"], { cwd: primary, stdio: ["pipe", "pipe", "inherit"] });
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
  const first = await call("orchard_add", { branch: "bench/mcp", owner: "bench" });
  const handle = first.result.handle;
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
  for (const [id, steps, what] of [
    ["floor-mcp-add-steps", "mcp-add", "a warm adopt's git commands in their order"],
    ["floor-mcp-heartbeat-steps", "mcp-heartbeat", "a warm heartbeat's git commands in their order"],
  ]) {
    const script = stepsScript(steps, { worktree: first.result.path, branch: "bench/mcp" });
    if (wanted(id)) await paired(id, `floor: ${what}, one shell, ${VS}`, async () => timed("sh", ["-c", script]));
  }
  child.stdin.end();
  await new Promise((done) => child.on("exit", done));
}
