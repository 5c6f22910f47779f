import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatOrchardLock, type LeaseLockFields, type LockOwner, ORCHARD_LEASE_PREFIX, parseLockOwner } from "./lock-owner.js";

const MAX_PID = 2 ** 31 - 1;

describe("parseLockOwner", () => {
  it.each<[string | null, LockOwner]>([
    [null, { kind: "unknown" }],
    ["", { kind: "unknown" }],
    ["initializing", { kind: "unknown" }],
    ["some human reason", { kind: "unknown" }],
    // Bare pids.
    ["1234", { kind: "pid", pid: 1234 }],
    ["  1234\n", { kind: "pid", pid: 1234 }],
    ["0", { kind: "unknown" }],
    [String(MAX_PID), { kind: "pid", pid: MAX_PID }],
    [String(MAX_PID + 1), { kind: "unknown" }],
    ["9".repeat(40), { kind: "unknown" }],
    ["-5", { kind: "unknown" }],
    ["12 34", { kind: "unknown" }],
    // Claude Code: `claude agent <slug> (pid N start T)`, T ticks since boot (Linux) or UTC lstart text (macOS).
    ["claude agent agent-a1b2c3 (pid 4242 start 8812345)", { kind: "claude-code", form: "agent", id: "agent-a1b2c3", pid: 4242, startTime: "8812345" }],
    [
      "claude agent agent-a1b2c3 (pid 4242 start Mon Nov  3 09:15:02 2026)\n",
      { kind: "claude-code", form: "agent", id: "agent-a1b2c3", pid: 4242, startTime: "Mon Nov  3 09:15:02 2026" },
    ],
    ["claude agent a1b2c3 (pid 4242)", { kind: "claude-code", form: "agent", id: "a1b2c3", pid: 4242 }],
    ["claude agent a1b2c3 (pid 4242)\n", { kind: "claude-code", form: "agent", id: "a1b2c3", pid: 4242 }],
    // `claude --worktree <name>` sessions: `claude session <name> (pid N start T)`, the name as given.
    ["claude session my task (pid 7 start 1700000000)", { kind: "claude-code", form: "session", id: "my task", pid: 7, startTime: "1700000000" }],
    ["claude session a/b c (pid 7)", { kind: "claude-code", form: "session", id: "a/b c", pid: 7 }],
    ["claude session x (pid 1) (pid 2 start Mon Jan 1)", { kind: "claude-code", form: "session", id: "x (pid 1)", pid: 2, startTime: "Mon Jan 1" }],
    ["claude session x (pid 0)", { kind: "unknown" }],
    [`claude agent x (pid ${MAX_PID + 1})`, { kind: "unknown" }],
    ["claude session x (pid 5) trailing", { kind: "unknown" }],
    ["claude session (pid 5)", { kind: "unknown" }],
    ["claude robot x (pid 5)", { kind: "unknown" }],
    ["claude agent x (pid 5 start )", { kind: "unknown" }],
    // Orchard.
    [
      `${ORCHARD_LEASE_PREFIX}{"handle":"app@main","owner":"me","pid":10,"startTime":"t","host":"h"}\n`,
      { kind: "orchard", handle: "app@main", owner: "me", pid: 10, startTime: "t", host: "h" },
    ],
    [`${ORCHARD_LEASE_PREFIX}{"handle":"app@main","owner":null}`, { kind: "orchard", handle: "app@main", owner: null }],
    [`${ORCHARD_LEASE_PREFIX}{"handle":"app@main"}`, { kind: "orchard", handle: "app@main", owner: null }],
    [`${ORCHARD_LEASE_PREFIX}{"handle":"app@main","owner":null,"extra":1}`, { kind: "orchard", handle: "app@main", owner: null }],
    [`${ORCHARD_LEASE_PREFIX}{"handle":"app@main",`, { kind: "unknown" }],
    [`${ORCHARD_LEASE_PREFIX}[1]`, { kind: "unknown" }],
    [`${ORCHARD_LEASE_PREFIX}null`, { kind: "unknown" }],
    [`${ORCHARD_LEASE_PREFIX}{"owner":"me"}`, { kind: "unknown" }],
    [`${ORCHARD_LEASE_PREFIX}{"handle":"h","owner":5}`, { kind: "unknown" }],
    [`${ORCHARD_LEASE_PREFIX}{"handle":"h","owner":null,"pid":0}`, { kind: "unknown" }],
    [`${ORCHARD_LEASE_PREFIX}{"handle":"h","owner":null,"pid":1.5}`, { kind: "unknown" }],
    [`${ORCHARD_LEASE_PREFIX}{"handle":"h","owner":null,"pid":"7"}`, { kind: "unknown" }],
    [`${ORCHARD_LEASE_PREFIX}{"handle":"h","owner":null,"host":7}`, { kind: "unknown" }],
  ])("%j", (text, expected) => {
    expect(parseLockOwner(text)).toEqual(expected);
  });

  it("never throws and classifies arbitrary text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "binary" }),
          fc.string().map((s) => ORCHARD_LEASE_PREFIX + s),
        ),
        (text) => {
          expect(["orchard", "claude-code", "pid", "unknown"]).toContain(parseLockOwner(text).kind);
        },
      ),
    );
  });

  it("any digits-only lock is a pid exactly when it is in 1…2^31−1", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (n) => {
        const owner = parseLockOwner(`${n}\n`);
        expect(owner).toEqual(n >= 1n && n <= BigInt(MAX_PID) ? { kind: "pid", pid: Number(n) } : { kind: "unknown" });
      }),
    );
  });
});

describe("formatOrchardLock", () => {
  it("writes the prefix and one JSON line", () => {
    expect(formatOrchardLock({ handle: "app@main", owner: "me", pid: 42 })).toBe(`${ORCHARD_LEASE_PREFIX}{"handle":"app@main","owner":"me","pid":42}`);
    expect(formatOrchardLock({ handle: "h", owner: "a\nb\u2028c\u0085" })).toBe(`${ORCHARD_LEASE_PREFIX}{"handle":"h","owner":"a\\nb\\u2028c\\u0085"}`);
  });

  it("refuses a pid that would not read back", () => {
    expect(() => formatOrchardLock({ handle: "h", owner: null, pid: 0 })).toThrow(RangeError);
    expect(() => formatOrchardLock({ handle: "h", owner: null, pid: MAX_PID + 1 })).toThrow(RangeError);
  });

  it("round-trips through parseLockOwner on a single line", () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom(" ", "\n", "\r\n", "\u2028", "\u0085", "orchard-lease {", "(pid 1)"));
    const fields: fc.Arbitrary<LeaseLockFields> = fc.record(
      { handle: text, owner: fc.option(text), pid: fc.integer({ min: 1, max: MAX_PID }), startTime: text, host: text },
      { requiredKeys: ["handle", "owner"] },
    );
    fc.assert(
      fc.property(fields, (f) => {
        const lock = formatOrchardLock(f);
        expect(lock).not.toMatch(/[\n\r\u0085\u2028\u2029]/);
        expect(parseLockOwner(lock)).toEqual({ kind: "orchard", ...f });
        expect(parseLockOwner(`${lock}\n`)).toEqual({ kind: "orchard", ...f });
      }),
      { numRuns: 1000 },
    );
  });
});
