// The floor of a warm MCP call (bench/_mcp-rows.mjs, rows floor-mcp-sdk and floor-mcp-sdk-adopt): a
// server of the same MCP SDK and zod as Orchard's, on stdio, with one tool that runs the shell script
// it was started with (a warm adopt's own git, _steps-floor.mjs) and answers. What any Node MCP
// server built on that SDK pays to run those git commands per call; what Orchard costs above it is
// its own. With a third argument (a directory of its own), the tool also does what SPEC makes an
// adopt write and look at besides git, the plainest way: takes a lock file for the listing (§4.3),
// reads every process's cwd (liveness: someone working inside, §3.8), renews the lease in a SQLite
// registry (an update and an appended event in one transaction, WAL, §5) and writes the lease text
// where git's `locked` is, through a temporary file and a rename (§3.1: the lock reason is the lease).
import { spawn } from "node:child_process";
import { mkdirSync, openSync, closeSync, writeSync, unlinkSync, readdirSync, readlinkSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const [script, cwd, own] = process.argv.slice(2);

/** The adopt's own writes and scan, or nothing (floor-mcp-sdk). */
function adoptWrites() {
  if (!own) return () => undefined;
  mkdirSync(own, { recursive: true });
  const db = new Database(join(own, "registry.db"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS worktrees (id INTEGER PRIMARY KEY, owner TEXT, pid INTEGER, expires_at TEXT, last_activity_at TEXT)");
  db.exec("CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, kind TEXT, handle TEXT, owner TEXT, data TEXT, at TEXT)");
  db.exec("INSERT OR IGNORE INTO worktrees (id, owner) VALUES (1, 'bench')");
  const update = db.prepare("UPDATE worktrees SET owner = ?, pid = ?, expires_at = ?, last_activity_at = ? WHERE id = 1");
  const event = db.prepare("INSERT INTO events (kind, handle, owner, data, at) VALUES ('adopted', 'bench', ?, ?, ?)");
  const renew = db.transaction((owner, now) => {
    update.run(owner, process.pid, new Date(Date.now() + 7_200_000).toISOString(), now);
    event.run(owner, JSON.stringify({ path: cwd }), now);
  });
  return (owner) => {
    const lock = join(own, "orchard.lock");
    const fd = openSync(lock, "wx");
    writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() }));
    closeSync(fd);
    let seen = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        readlinkSync(`/proc/${entry}/cwd`);
        seen++;
      } catch {
        // gone, or not ours to read
      }
    }
    const now = new Date().toISOString();
    renew(owner, now);
    writeFileSync(join(own, "locked.tmp"), `orchard-lease ${JSON.stringify({ handle: "bench", owner, pid: process.pid, host: "bench", at: now, seen })}`);
    renameSync(join(own, "locked.tmp"), join(own, "locked"));
    unlinkSync(lock);
  };
}

const writes = adoptWrites();
const server = new McpServer({ name: "orchard-bench-floor", version: "1.0.0" });
server.registerTool("steps", { inputSchema: { branch: z.string(), owner: z.string() } }, async ({ owner }) => {
  const code = await new Promise((done) => spawn("sh", ["-c", script], { cwd, stdio: "ignore" }).on("exit", done));
  writes(owner);
  return { content: [{ type: "text", text: JSON.stringify({ ok: code === 0 }) }] };
});
await server.connect(new StdioServerTransport());
