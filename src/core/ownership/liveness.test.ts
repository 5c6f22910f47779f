import { describe, expect, it } from "vitest";
import { assessLiveness, assessRemoteLease, type LivenessInput } from "./liveness.js";

const now = Date.parse("2026-06-01T12:00:00Z");
const base: LivenessInput = { lease: null, pids: [], lockOwnerUnknown: false, inside: [], now };
const fresh = { heartbeatAt: "2026-06-01T11:30:00Z", ttlMs: 3600_000 };
const stale = { heartbeatAt: "2026-06-01T09:00:00Z", ttlMs: 3600_000 };

describe("assessLiveness", () => {
  it.each<[string, Partial<LivenessInput>, string, string[]]>([
    ["no lease, nobody inside", {}, "none", []],
    ["fresh heartbeat", { lease: fresh }, "live", ["lease_live"]],
    ["expired heartbeat, no pid", { lease: stale }, "dead", ["lease_expired"]],
    ["expired heartbeat, pid alive", { lease: stale, pids: [{ pid: 10, host: null, state: "alive" }] }, "live", ["lease_expired", "pid_alive"]],
    ["pid reused", { pids: [{ pid: 10, host: null, state: "reused" }] }, "dead", ["pid_reused"]],
    ["pid dead", { pids: [{ pid: 10, host: null, state: "dead" }] }, "dead", ["pid_dead"]],
    ["pid on another host", { lease: stale, pids: [{ pid: 10, host: "b", state: "other_host" }] }, "unknown", ["lease_expired", "pid_other_host"]],
    ["pid state unknown", { pids: [{ pid: 10, host: null, state: "unknown" }] }, "unknown", ["pid_unknown"]],
    ["unparseable lock", { lockOwnerUnknown: true }, "unknown", ["lock_owner_unknown"]],
    ["process inside wins over unknowns", { lockOwnerUnknown: true, inside: [42] }, "live", ["lock_owner_unknown", "process_in_worktree"]],
    ["process table unreadable", { inside: null }, "unknown", ["processes_unknown"]],
    // SPEC §4.14: processes the scan could not inspect make "nobody inside" unknown
    ["nobody seen inside, some processes unseen", { unseen: 2 }, "unknown", ["processes_unknown"]],
    ["a process seen inside beats unseen ones", { unseen: 2, inside: [42] }, "live", ["process_in_worktree"]],
    // SPEC §4.10: an Orchard lock without its registry row is a lease we cannot read
    ["orchard lock, no row, no pid", { orphanLease: { owner: "a", handle: "h" } }, "unknown", ["lease_unknown"]],
    // the pid beats the heartbeat (SPEC §4.11)
    ["the lease's pid dead, heartbeat fresh", { lease: { ...fresh, pid: 10 }, pids: [{ pid: 10, host: null, state: "dead" }] }, "dead", ["pid_dead"]],
    ["the lease's pid reused, heartbeat fresh", { lease: { ...fresh, pid: 10 }, pids: [{ pid: 10, host: null, state: "reused" }] }, "dead", ["pid_reused"]],
    [
      "the lease's pid unknown, heartbeat fresh",
      { lease: { ...fresh, pid: 10 }, pids: [{ pid: 10, host: null, state: "unknown" }] },
      "unknown",
      ["pid_unknown"],
    ],
    ["the lease's pid alive, heartbeat expired", { lease: { ...stale, pid: 10 }, pids: [{ pid: 10, host: null, state: "alive" }] }, "live", ["pid_alive"]],
    [
      "the lease's pid on another host: the TTL decides",
      { lease: { ...fresh, pid: 10 }, pids: [{ pid: 10, host: "b", state: "other_host" }] },
      "live",
      ["lease_live", "pid_other_host"],
    ],
    ["a lock's pid dead beside a lease without a pid", { lease: fresh, pids: [{ pid: 10, host: null, state: "dead" }] }, "live", ["lease_live", "pid_dead"]],
    [
      "the lease's pid dead, a lock's other pid alive",
      {
        lease: { ...fresh, pid: 10 },
        pids: [
          { pid: 10, host: null, state: "dead" },
          { pid: 11, host: null, state: "alive" },
        ],
      },
      "live",
      ["pid_dead", "pid_alive"],
    ],
  ])("%s", (_label, input, state, signals) => {
    const verdict = assessLiveness({ ...base, ...input });
    expect(verdict.state).toBe(state);
    expect(verdict.signals.map((s) => s.code)).toEqual(signals);
  });
});

describe("assessRemoteLease (another host's row: its heartbeat alone)", () => {
  const row = { owner: "agent", pid: 42 };
  it.each<[string, Parameters<typeof assessRemoteLease>[0], string, string[]]>([
    ["no lease", { owner: null, pid: null, heartbeatAt: null, ttlMs: null }, "none", []],
    ["fresh heartbeat (its pid is not looked at)", { ...row, ...fresh }, "live", ["lease_live"]],
    ["expired heartbeat", { ...row, ...stale }, "dead", ["lease_expired"]],
    ["a lease without a heartbeat", { ...row, heartbeatAt: null, ttlMs: null }, "unknown", ["lease_unknown"]],
  ])("%s → %s", (_name, input, state, codes) => {
    const result = assessRemoteLease(input, now);
    expect(result.state).toBe(state);
    expect(result.signals.map((s) => s.code)).toEqual(codes);
  });
});
