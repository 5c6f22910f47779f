// Who may end a live lease (SPEC v5, issue 46 item 10): naming a lease's owner does not make a
// caller its holder. A lease with a live pid is released only by that process or its descendants
// (the agent, MCP client or session that holds it), or once its pid is dead or its heartbeat has
// expired, or by a person's `--force`. `remove` and every `next` point at `orchard status`, never
// at a release by the owner's name.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario, deadPid, liveProcess, waitFor } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let s: Scenario;
let stops: (() => void)[] = [];
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
  s.cleanup();
});

function agentProcess(): number {
  const p = liveProcess();
  stops.push(p.stop);
  return p.pid;
}

const codes = (r: { json: { reasons: { code: string }[] } }) => r.json.reasons.map((x) => x.code);

describe("a live lease is its holder's to release", () => {
  it("remove points at status; a release by the owner's name from another process is refused; --force is a person's override", () => {
    const pid = agentProcess();
    const wt = s.orchard(["add", "feat-a", "--owner", "agentA", "--pid", String(pid)]).json;
    const removed = s.orchard(["remove", wt.handle]);
    expect(removed.code).toBe(3);
    expect(removed.json.next).toBe(`orchard status ${wt.handle}`);
    expect(removed.stdout).not.toContain("--owner");

    const taken = s.orchard(["release", wt.handle, "--owner", "agentA"]);
    expect(taken.code).toBe(3);
    expect(codes(taken)).toEqual(["live_owner"]);
    expect(taken.json.reasons[0]).toMatchObject({ holderPid: pid, next: `orchard status ${wt.handle}` });
    expect(existsSync(join(s.adminDir(wt.path), "locked"))).toBe(true);
    expect(s.orchard(["status", wt.handle]).json.worktree).toMatchObject({ lifecycle: "active", owner: "agentA" });

    // re-pointing the lease at the caller is taking it too
    const repointed = s.orchard(["heartbeat", wt.handle, "--owner", "agentA", "--pid", String(agentProcess())]);
    expect(repointed.code).toBe(3);
    expect(codes(repointed)).toEqual(["live_owner"]);
    expect(s.orchard(["status", wt.handle]).json.worktree.liveness.signals).toContainEqual(
      expect.objectContaining({ detail: expect.stringContaining(`pid ${pid}`) }),
    );

    // nor does add of the same owner's name with another pid take the lease over
    const readded = s.orchard(["add", "feat-a", "--owner", "agentA", "--pid", String(agentProcess())]);
    expect(readded.code).toBe(3);
    expect(readded.json.reasons).toEqual([expect.objectContaining({ code: "live_owner", holderPid: pid })]);

    const forced = s.orchard(["release", wt.handle, "--owner", "agentA", "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.json).toMatchObject({ ok: true, action: "released" });
  });

  it("reuse-compatible does not take another process's live worktree by its owner's name", () => {
    const pid = agentProcess();
    const a = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "agentA", "--pid", String(pid)]).json;
    const b = s.orchard(["add", "feat-b", "--task", "T-1", "--owner", "agentA", "--pid", String(agentProcess()), "--policy", "reuse-compatible"]);
    expect(b.code, b.stdout).toBe(0);
    expect(b.json.action).toBe("created");
    expect(b.json.candidates).toEqual([
      expect.objectContaining({ handle: a.handle, eligible: false, reasons: [expect.objectContaining({ code: "live_owner", holderPid: pid })] }),
    ]);
    expect(s.orchard(["status", a.handle]).json.worktree).toMatchObject({ lifecycle: "active", owner: "agentA" });
  });

  it("the holder itself (an ancestor of the caller) releases by its name", () => {
    // this test process is an ancestor of the CLI it spawns: it holds the lease
    const wt = s.orchard(["add", "feat-a", "--owner", "agentA", "--pid", String(process.pid)]).json;
    const r = s.orchard(["release", wt.handle, "--owner", "agentA"]);
    expect(r.code).toBe(0);
    expect(r.json.action).toBe("released");
  });

  it("a dead pid or an expired lease is anyone's to release", async () => {
    const dead = s.orchard(["add", "feat-a", "--owner", "agentA", "--pid", String(agentProcess())]).json;
    const victim = stops.pop();
    victim?.();
    await waitFor(() => s.orchard(["status", dead.handle]).json.worktree.liveness.state !== "live", "the agent's death");
    expect(s.orchard(["release", dead.handle, "--owner", "agentA"]).json.action).toBe("released");

    const expiring = s.orchard(["add", "feat-b", "--owner", "agentB", "--pid", String(agentProcess()), "--ttl", "1s"]).json;
    const expiresAt = Date.parse(expiring.lease.expiresAt);
    await waitFor(() => Date.now() > expiresAt + 50, "the lease's expiry");
    expect(s.orchard(["release", expiring.handle, "--owner", "agentB"]).json.action).toBe("released");
  });

  it("a dead pid recorded from the start (pid-less leases keep their name as credential)", () => {
    const wt = s.orchard(["add", "feat-a", "--owner", "agentA"]).json;
    expect(wt.lease.pid).toBeNull();
    expect(s.orchard(["release", wt.handle, "--owner", "agentA"]).json.action).toBe("released");
    expect(deadPid()).toBeGreaterThan(0);
  });

  it("an MCP client that is not the holder cannot release by the owner's name, nor pass force", async () => {
    const pid = agentProcess();
    const wt = s.orchard(["add", "feat-a", "--owner", "agentA", "--pid", String(pid)]).json;
    const env = hermeticEnv() as Record<string, string>;
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "--home", s.home, "mcp"], cwd: s.primary, env, stderr: "pipe" });
    const client = new Client({ name: "intruder", version: "1.0.0" });
    await client.connect(transport, { timeout: PROCESS_TIMEOUT_MS });
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = await client.callTool({ name, arguments: args }, undefined, { timeout: PROCESS_TIMEOUT_MS });
        return JSON.parse((r.content as { text: string }[])[0]?.text ?? "");
      };
      const removed = await call("orchard_remove", { target: wt.handle });
      expect(removed.next).toBe(`orchard_status {"target":"${wt.handle}"}`);
      const released = await call("orchard_release", { target: wt.handle, owner: "agentA" });
      expect(released).toMatchObject({ ok: false, action: "refused", reasons: [{ code: "live_owner", holderPid: pid }] });
      const forced = await call("orchard_release", { target: wt.handle, owner: "agentA", force: true });
      expect(forced.ok).not.toBe(true);
      expect(s.orchard(["status", wt.handle]).json.worktree).toMatchObject({ lifecycle: "active", owner: "agentA" });
    } finally {
      await client.close();
    }
  });
});
