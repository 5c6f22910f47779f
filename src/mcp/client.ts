// The MCP client as the default holder of a lease (SPEC v3 §3.12): a tool that leases, called
// without `pid`, leases to the process the server serves — its parent, followed past launchers
// (`npx`, `npm exec`, `sh -c`, node running a package runner) to the first that is not one, found
// once when the server starts (a client that dies leaves the server to init or a subreaper, which
// must never be leased to). When the client is gone by the time of the call (its start time no
// longer matches), nothing is leased: the call fails, and nobody is there to read its answer anyway.
import { failure } from "../core/shared/errors.js";
import { readStartTime, type ClientProcess } from "../core/ownership/index.js";
import type { Tool } from "./tools.js";

/** The methods whose tools lease, and when the client is their default pid. */
const LEASING: Partial<Record<NonNullable<Tool["method"]>, (args: Record<string, unknown>) => boolean>> = {
  add: () => true,
  recycle: () => true,
  heartbeat: () => true,
  // without an owner, adopt keeps the holder the worktree's lock names; with one, the client takes it
  adopt: (args) => args.owner !== undefined,
};

/** True when `tool` leases to the client when called without `pid`. */
export function leasesToClient(tool: Tool): boolean {
  return tool.method !== null && LEASING[tool.method] !== undefined;
}

/** `args` with `pid` set to the client's when the tool leases and the call names none. */
export async function withClientPid(tool: Tool, args: unknown, client: ClientProcess | null): Promise<unknown> {
  const rule = tool.method === null ? undefined : LEASING[tool.method];
  if (!rule || client === null || typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const object = args as Record<string, unknown>;
  if (object.pid !== undefined || !rule(object)) return args;
  const now = await readStartTime(client.pid);
  if (client.startTime !== null && now !== client.startTime) throw failure("client_gone", `the MCP client (pid ${client.pid}) has exited; nothing was leased`);
  return { ...object, pid: client.pid };
}
