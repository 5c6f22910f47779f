// `orchard lineage <handle|task>` (SPEC §3.5): the append-only events of a handle or a task,
// oldest first; they survive removal. Like every `target` (SPEC §3.12), the path or branch of a
// current managed worktree names its handle too. A handle's lineage follows recycles both ways, so asking
// about either end of a recycle shows the events of every handle in that chain. On a shared
// registry it spans the fleet: each event names the host that wrote it, and events are ordered by
// their time (then id), since ids say only when an event reached the registry (a migrated host's
// history arrives after events it predates).
import type { EventKind, EventRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import { canonicalTask } from "../shared/naming/task.js";
import { usageError } from "../shared/errors.js";
import { realOrAbsolute } from "../shared/repo/paths.js";

export interface LineageEvent {
  at: string;
  kind: EventKind;
  handle: string | null;
  task: string | null;
  owner: string | null;
  data: Record<string, unknown>;
  /** The host that wrote it (null only for events written before hosts existed). */
  host: string | null;
}

export interface LineageResult {
  ok: true;
  events: LineageEvent[];
}

/** Handles a recycled event links (from and to). */
function linked(event: EventRow): string[] {
  if (event.kind !== "recycled") return [];
  const data = event.data as { from?: { handle?: unknown }; to?: { handle?: unknown } };
  return [data.from?.handle, data.to?.handle].filter((h): h is string => typeof h === "string");
}

/** The handles of this repo's current managed worktrees whose branch or path is `target`. */
async function handlesNamedBy(ctx: Ctx, target: string): Promise<string[]> {
  const path = realOrAbsolute(target);
  const rows = await ctx.registry.worktrees.current(ctx.repo.identity);
  return rows.filter((r) => r.branch === target || r.path === path).map((r) => r.handle);
}

export async function lineage(ctx: Ctx, options: { target: string }): Promise<LineageResult> {
  const target = options.target.trim();
  if (target.length === 0) throw usageError("invalid_argument", "lineage needs a handle or a task");
  const found = new Map<number, EventRow>();
  const mine = (events: EventRow[]) => events.filter((e) => e.repo === ctx.repo.identity);
  const task = canonicalTask(target, ctx.repo.identity);
  for (const event of mine(await ctx.registry.events.for({ task }))) if (event.task === task) found.set(event.id, event);
  const queue = [target, ...(await handlesNamedBy(ctx, target))];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const handle = queue.pop() as string;
    if (seen.has(handle)) continue;
    seen.add(handle);
    for (const event of mine(await ctx.registry.events.for({ handle }))) {
      if (event.handle !== handle && !linked(event).includes(handle)) continue;
      found.set(event.id, event);
      queue.push(...linked(event));
    }
  }
  const events = [...found.values()]
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id - b.id))
    .map(({ at, kind, handle, task, owner, data, host }) => ({ at, kind, handle, task, owner, data, host }));
  return { ok: true, events };
}
