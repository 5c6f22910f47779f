// The evidence Orchard actually produces is the evidence its types declare (issue 23 item 4): real
// git scenarios through the library (add, release, heartbeat, adopt, hygiene, cleanup plan) yield
// refusals and verdicts; every reason found anywhere in those results is checked against SPECS.
// SPECS is typed from ReasonDetails: a key the type does not declare, a declared key left out, or a
// kind (string, number, …) the declared type does not admit fails to compile — so a produced field
// that is not in the type, or of another kind, fails here at run time.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { makeProcessEnvHermetic } from "../helpers/env.js";
import { Orchard, type Reason, type ReasonCode, type ReasonDetails } from "../../src/index.js";
import { REASON_TEXT } from "../../src/core/shared/reasons/reasons.js";

type Kind = "string" | "number" | "boolean" | "null" | "array" | "object";
/** The kinds a declared type admits. */
type KindOf<T> = T extends string
  ? "string"
  : T extends number
    ? "number"
    : T extends boolean
      ? "boolean"
      : T extends null
        ? "null"
        : T extends undefined
          ? never
          : T extends readonly unknown[]
            ? "array"
            : "object";
type KeysOf<T> = T extends unknown ? keyof T : never;
type ValueAt<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
/** Every key any variant of the code's evidence declares, with the kinds its value may have. */
type Spec<C extends ReasonCode> = { readonly [K in KeysOf<ReasonDetails[C]>]-?: readonly KindOf<ValueAt<ReasonDetails[C], K>>[] };

const SPECS: { readonly [C in ReasonCode]?: Spec<C> } = {
  live_owner: { owner: ["string", "null"], signals: ["array"], holderPid: ["number", "null"] },
  dirty: { tracked: ["number"], untracked: ["number"], conflicted: ["number"], unknown: ["boolean"], files: ["array"] },
  unpushed_commits: { count: ["number"], unknown: ["boolean"] },
  not_active: { lifecycle: ["string"] },
  branch_checked_out: { path: ["string"], branch: ["string"] },
  not_adoptable: { path: ["string"] },
  detached: { path: ["string"] },
  handle_taken: { handle: ["string"], path: ["string"] },
  task_held_elsewhere: { handle: ["string"], path: ["string"], owner: ["string", "null"], host: ["string"] },
  not_live: { liveness: ["string"] },
  clean: {},
  terminal: {},
  active_unowned: { managed: ["boolean"] },
  work_preserved: { via: ["string"], how: ["string", "null"], target: ["string", "null"], unpushed: ["number"] },
  work_not_preserved: { unpushed: ["number", "null"], head: ["string", "null"], merged: ["object", "null"], path: ["string"], branch: ["string", "null"] },
  merged: { how: ["string", "null"], target: ["string", "null"] },
  not_included: { disposition: ["string"], include: ["array"] },
  not_listed_by_git: { outsideManagedRoot: ["boolean"] },
  lock_too_fresh: { reapableAt: ["string"], guardMs: ["number"], reapProof: ["boolean"] },
};

const kindOf = (v: unknown): Kind => (v === null ? "null" : Array.isArray(v) ? "array" : (typeof v as Kind));

/** Every reason in a result: an object with a known `code` and a `message`. */
function reasonsIn(value: unknown, found: Reason[] = []): Reason[] {
  if (Array.isArray(value)) for (const v of value) reasonsIn(v, found);
  else if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.code === "string" && Object.hasOwn(REASON_TEXT, o.code) && typeof o.message === "string") found.push(o as unknown as Reason);
    for (const v of Object.values(o)) reasonsIn(v, found);
  }
  return found;
}

/** The produced reason's evidence, field by field, against its code's spec: [field, kind] pairs the type does not admit. */
function mismatches(r: Reason): string[] {
  const spec = SPECS[r.code] as Record<string, readonly Kind[]> | undefined;
  if (!spec) return [];
  const bad: string[] = [];
  for (const [key, value] of Object.entries(r)) {
    if (key === "code" || key === "message" || key === "next") continue;
    const kinds = spec[key];
    if (!kinds) bad.push(`${r.code}.${key}: not declared`);
    else if (!kinds.includes(kindOf(value))) bad.push(`${r.code}.${key}: ${kindOf(value)}, declared ${kinds.join(" | ")}`);
  }
  return bad;
}

let s: Scenario;
beforeAll(() => {
  makeProcessEnvHermetic(); // in-process calls start git with process.env
});
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

describe("the evidence of each reason as produced", () => {
  it("matches its declared detail type, for the codes of refusals, hygiene and cleanup plans", async () => {
    const orchard = await Orchard.open({ repo: s.primary, home: s.home });
    const results: unknown[] = [];
    try {
      const a = await orchard.add({ branch: "feat/a", task: "T-1", owner: "agent-1" });
      if (!a.ok) throw new Error(`add: ${JSON.stringify(a)}`);
      // another owner while agent-1's lease is live: refused live_owner, by add and by release
      results.push(await orchard.add({ branch: "feat/a", task: "T-1", owner: "agent-2" }));
      results.push(await orchard.release({ target: "feat/a", owner: "agent-2" }));
      // exclusive-task: the task is held by agent-1's live lease
      results.push(await orchard.add({ branch: "feat/a2", task: "T-1", owner: "agent-3", policy: "exclusive-task" }));
      // work in it (a commit on no remote, a changed file, an untracked one), then released
      s.commit({ in: a.path, file: "work.txt" });
      writeFileSync(join(a.path, "README.md"), "# changed\n");
      writeFileSync(join(a.path, "new.txt"), "new\n");
      results.push(await orchard.release({ target: "feat/a", owner: "agent-1" }));
      results.push(await orchard.add({ branch: "feat/a", task: "T-1", owner: "agent-2" })); // dirty
      results.push(await orchard.heartbeat({ target: "feat/a", owner: "agent-1" })); // not_active
      // a clean one, released, and one merged
      const b = await orchard.add({ branch: "feat/b", owner: "agent-1" });
      results.push(await orchard.release({ target: b.handle, owner: "agent-1" }));
      // a branch checked out in a foreign worktree, a detached one, the primary
      s.worktree("feat/foreign");
      results.push(await orchard.add({ branch: "feat/foreign" }));
      const detachedPath = join(s.root, "foreign", "detached");
      git(s.primary, "worktree", "add", "-q", "--detach", detachedPath, "main");
      results.push(await orchard.adopt({ path: detachedPath }));
      results.push(await orchard.adopt({ path: s.primary }));
      results.push(await orchard.hygiene());
      results.push(await orchard.cleanupPlan({ include: ["reclaimable"] }));
    } finally {
      await orchard.close();
    }

    const reasons = results.flatMap((r) => reasonsIn(r));
    expect(reasons.flatMap(mismatches)).toEqual([]);
    const produced = new Set(reasons.map((r) => r.code));
    // the scenario produced these codes, so each was checked above
    for (const code of [
      "live_owner",
      "task_held_elsewhere",
      "dirty",
      "not_active",
      "branch_checked_out",
      "not_adoptable",
      "terminal",
      "clean",
      "not_live",
      "work_preserved",
      "work_not_preserved",
      "not_included",
    ] as const)
      expect(produced, code).toContain(code);
    // a few of them in full: the evidence has the declared fields, with their values
    const dirty = reasons.find((r) => r.code === "dirty");
    expect(dirty).toMatchObject({ tracked: 1, untracked: 1, conflicted: 0 });
    const held = reasons.find((r) => r.code === "live_owner" && "signals" in r);
    expect(held).toMatchObject({ owner: "agent-1", signals: expect.arrayContaining([expect.objectContaining({ code: "lease_live" })]) });
    expect(reasons.find((r) => r.code === "not_active")).toMatchObject({ lifecycle: "terminal" });
  });
});
