// What the workspace's trash still holds, for hygiene (SPEC v3 §4.10): an entry its purger could
// not delete (`trash_not_deleted`, with rm's reason and the command that retries) and an entry
// Orchard never put there (`trash_foreign`, never deleted); `disk.trashBytes` with --disk.
import { formatBytes } from "../shared/format.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { readTrashLeftovers, type TrashLeftover } from "../shared/removal/trash-report.js";
import { trashDir } from "../shared/context.js";
import { walkDisk } from "./disk.js";

/** Allocated bytes under `paths` (a link counts as itself), or null when the deadline passed first. */
async function bytesOf(paths: readonly string[], deadline: number): Promise<number | null> {
  const walk = await walkDisk(paths, { deadline, skip: new Set() });
  return walk === null ? null : walk.bytes;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

async function leftoverNote(home: string, code: "trash_not_deleted" | "trash_foreign", entries: TrashLeftover[], deadline: number): Promise<Reason> {
  const bytes = await bytesOf(
    entries.map((e) => e.path),
    deadline,
  );
  const why = [...new Set(entries.map((e) => e.why))];
  const size = bytes === null ? "size not measured" : formatBytes(bytes);
  const what = `${plural(entries.length, "entry", "entries")} (${size}) in ${trashDir(home)}: ${why.join("; ")}`;
  if (code === "trash_foreign") return reason(code, { entries: entries.map((e) => e.path), bytes, why }, `${what}; remove them by hand if they are yours`);
  const command = "orchard cleanup run";
  return reason(
    code,
    { entries: entries.map((e) => e.path), bytes, why, command },
    `${what}; once the cause is gone (chattr -i, or as the files' owner) \`${command}\` retries them`,
  );
}

/** Hygiene's notes about the trash, and the bytes it holds in all when `disk` is asked. */
export async function trashReport(home: string, options: { disk: boolean; deadline: number }): Promise<{ notes: Reason[]; trashBytes?: number | null }> {
  const leftovers = readTrashLeftovers(home);
  const notes: Reason[] = [];
  const failed = leftovers.filter((l) => l.state === "failed");
  const foreign = leftovers.filter((l) => l.state === "foreign");
  if (failed.length > 0) notes.push(await leftoverNote(home, "trash_not_deleted", failed, options.deadline));
  if (foreign.length > 0) notes.push(await leftoverNote(home, "trash_foreign", foreign, options.deadline));
  if (!options.disk) return { notes };
  return { notes, trashBytes: await bytesOf([trashDir(home)], options.deadline) };
}
