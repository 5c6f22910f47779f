// Install and uninstall of Orchard's session hooks in a harness's JSON hook file (SPEC v5 §3.15):
// the file is read as claude-code's install reads Claude's settings (a regular JSON object of at
// most 1 MiB, else an error naming it and nothing written), edited in place (hooks-text.ts) and
// replaced atomically. Install is idempotent; uninstall gives back the file as it was before, byte
// for byte — a file that install created (nothing but its skeleton left) is removed.
import { existsSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { lineDiff, readSettingsText, writeAtomically } from "../claude-code/index.js";
import { installIntoText, uninstallFromText, type InstallText } from "./hooks-text.js";

export interface HookFileResult {
  ok: true;
  action: "installed" | "unchanged" | "uninstalled" | "not_installed" | "planned";
  file: string;
  /** What the hooks run orchard with (install only). */
  command?: string;
  diff: string;
  notes: { code: string; message: string }[];
}

/** The line diff of two texts; "" is no file (every line of the other is added or removed). */
export function diffOf(before: string, after: string): string {
  const strip = (text: string) => text.replace(/\n$/, "");
  if (after === "")
    return strip(before)
      .split("\n")
      .map((line) => `- ${line}`)
      .join("\n");
  return lineDiff(strip(before), strip(after));
}

/** Removes a file uninstall emptied, and its directory when that leaves it empty (install made both). */
export function removeEmptied(file: string): void {
  if (existsSync(file)) rmSync(file);
  if (readdirSync(dirname(file)).length === 0) rmdirSync(dirname(file));
}

export function installHookFile(file: string, spec: InstallText & { command: string; dryRun: boolean; notes?: HookFileResult["notes"] }): HookFileResult {
  const before = readSettingsText(file);
  const after = installIntoText(before, spec);
  const base = { ok: true as const, file, command: spec.command, notes: spec.notes ?? [] };
  if (after === before) return { ...base, action: "unchanged", diff: "" };
  const diff = diffOf(before, after);
  if (spec.dryRun) return { ...base, action: "planned", diff };
  writeAtomically(file, after);
  return { ...base, action: "installed", diff };
}

export function uninstallHookFile(file: string, spec: Omit<InstallText, "commands" | "top"> & { dryRun: boolean }): HookFileResult {
  const before = readSettingsText(file);
  const left = uninstallFromText(before, spec);
  if (left === before) return { ok: true, action: "not_installed", file, diff: "", notes: [] };
  const gone = left === EMPTIED; // the file install made holds nothing else: it goes
  const diff = diffOf(before, gone ? "" : left);
  if (spec.dryRun) return { ok: true, action: "planned", file, diff, notes: [] };
  if (gone) removeEmptied(file);
  else writeAtomically(file, left);
  return { ok: true, action: "uninstalled", file, diff, notes: [] };
}

/** What uninstall leaves of the file install made from nothing (NEW_FILE with `hooks` added, then removed). */
const EMPTIED = "{}\n";
