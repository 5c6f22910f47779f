// The `outputSchema` of every MCP tool (SPEC v3 §3.12): the JSON object the CLI prints with
// --json, which each result also carries as `structuredContent`. A result is one of two shapes:
// the command's own object (`ok` true, or false for a refusal, with its reasons), or the error
// object of SPEC §2 (`ok: false` and `error: {code, message}`, for bad input or a failure).
// The top-level fields are typed here; nested objects name their main fields and allow more,
// so a field added to a result (SPEC: add, never rename) never breaks a client that validates.
import * as z from "zod";
import type { ToolName } from "./annotations.js";
import { ADD_ACTIONS, ADOPT_ACTIONS, LEASE_ACTIONS } from "../core/shared/actions.js";
import { HARNESS_NAMES } from "../core/harness/index.js";

const lazy = <S>(build: () => S): (() => S) => {
  let built: S | undefined;
  return () => (built ??= build());
};

const shapes = lazy(() => {
  const text = z.string();
  const orNull = <S extends z.ZodType>(s: S) => s.nullable();
  const reason = z.looseObject({ code: text, message: text, next: orNull(text) });
  const reasons = z.array(reason);
  const lease = orNull(z.looseObject({ owner: orNull(text), pid: orNull(z.number()), host: text, expiresAt: orNull(text) }));
  // which agent harness made the worktree (SPEC v5 §1), on every list, status and hygiene row
  const harness = orNull(z.looseObject({ name: z.enum(HARNESS_NAMES), session: text.optional(), tracked: z.union([z.boolean(), z.literal("unknown")]) }));
  const facts = z.looseObject({ path: text, handle: orNull(text), managed: z.boolean(), branch: orNull(text), head: orNull(text), harness });
  const item = z.looseObject({});
  const base = orNull(z.looseObject({ ref: text, commit: text }));
  const add = z.looseObject({
    ok: z.boolean(),
    action: z.enum(ADD_ACTIONS),
    handle: text,
    path: text,
    branch: text,
    base,
    head: orNull(text),
    task: orNull(text),
    owner: orNull(text),
    lease,
    reasons,
    notes: reasons,
    candidates: z.array(item),
    bootstrap: z.looseObject({ status: z.enum(["ran", "skipped", "failed", "reused", "shared"]) }),
  });
  const leaseResult = z.looseObject({
    ok: z.boolean(),
    action: z.enum(LEASE_ACTIONS),
    handle: text,
    path: text,
    lifecycle: text,
    lease,
    reasons,
  });
  const counts = { done: z.number(), skipped: z.number(), refused: z.number(), failed: z.number(), remaining: z.number() };
  const status = z.enum(["completed", "needs_resume"]);
  const apply = z.looseObject({ ok: z.boolean(), planId: text, status, ...counts, items: z.array(item), notes: reasons });
  const hygiene = z.looseObject({
    ok: z.literal(true),
    generatedAt: text,
    repos: z.array(item),
    summary: item,
    worktrees: z.array(facts.extend({ disposition: text })),
    duplicateTaskGroups: z.array(item),
    cleanupBacklog: item,
    notes: reasons,
  });
  const fleet = z.looseObject({
    ok: z.literal(true),
    generatedAt: text,
    host: text,
    hosts: z.array(text),
    duplicateTaskGroups: z.array(item),
    backlog: item,
    notes: reasons,
  });
  const wave = z.looseObject({
    ok: z.boolean(),
    strategy: z.enum(["merge", "squash", "rebase"]),
    plan: item,
    result: z.looseObject({ ok: z.boolean(), entries: z.array(item), pending: z.array(item) }),
  });
  const error = z.looseObject({ ok: z.literal(false), error: z.object({ code: text, message: text }) });
  const results: Record<ToolName, z.ZodType> = {
    orchard_add: add,
    orchard_recycle: add,
    orchard_salvage_restore: add.extend({ restoredFrom: z.looseObject({ ref: text, commit: text }) }),
    orchard_release: leaseResult,
    orchard_heartbeat: leaseResult,
    orchard_bootstrap: z.looseObject({ ok: z.boolean(), action: text, handle: text, path: text, reasons, notes: reasons }),
    orchard_status: z.looseObject({ ok: z.literal(true), worktree: facts }),
    orchard_list: z.looseObject({ ok: z.literal(true), repo: item, worktrees: z.array(facts) }),
    orchard_hygiene: hygiene,
    orchard_hygiene_html: hygiene.extend({ html: text }),
    orchard_hygiene_fleet: fleet,
    orchard_reap_orphans: z.looseObject({ ok: z.boolean(), reaped: z.number(), skipped: z.number(), entries: z.array(item) }),
    orchard_cleanup_plan: z.looseObject({ ok: z.literal(true), planId: text, digest: text, items: z.array(item), skipped: z.array(item), notes: reasons }),
    orchard_cleanup_apply: apply,
    orchard_cleanup_resume: apply,
    orchard_cleanup_run: z.looseObject({
      ok: z.boolean(),
      status,
      planIds: z.array(text),
      rounds: z.number(),
      ...counts,
      items: z.array(item),
      kept: z.array(item),
      notes: reasons,
    }),
    orchard_cleanup_wave: wave,
    orchard_adopt: z.looseObject({
      ok: z.boolean(),
      action: z.enum(ADOPT_ACTIONS),
      handle: orNull(text),
      path: text,
      branch: orNull(text),
      reasons,
    }),
    orchard_lineage: z.looseObject({ ok: z.literal(true), events: z.array(item) }),
    orchard_salvage_list: z.looseObject({ ok: z.literal(true), salvages: z.array(item) }),
    orchard_remove: z.looseObject({
      ok: z.boolean(),
      action: z.enum(["removed", "planned", "refused"]),
      path: text,
      handle: orNull(text),
      reasons,
      next: orNull(text),
    }),
    orchard_path: z.looseObject({
      ok: z.boolean(),
      path: text,
      handle: orNull(text),
      branch: orNull(text),
      task: orNull(text),
      via: z.enum(["target", "task", "primary"]),
    }),
    orchard_merge: z.looseObject({
      ok: z.boolean(),
      action: z.enum(["merged", "already_merged", "already_done", "planned", "blocked", "branch_kept"]),
      handle: text.nullable(),
      path: text,
      branch: text,
      strategy: z.enum(["merge", "squash", "rebase"]),
      reasons,
    }),
    orchard_salvage_prune: z.looseObject({ ok: z.literal(true), pruned: z.array(item), kept: z.array(item), notes: reasons }),
    orchard_explain: z.looseObject({
      ok: z.literal(true),
      code: text.optional(),
      kind: z.enum(["reason", "disposition"]).optional(),
      meaning: text.optional(),
      remedy: orNull(text).optional(),
      codes: z.array(item).optional(),
    }),
  };
  return { results, error };
});

/** The JSON schema of a tool's result: its own object or the error object. */
export function outputJsonSchema(name: ToolName): { type: "object"; [key: string]: unknown } {
  const { results, error } = shapes();
  const schema = z.toJSONSchema(z.union([results[name], error]), { io: "output", target: "draft-7" }) as Record<string, unknown>;
  delete schema.$schema;
  return { type: "object", ...schema };
}
