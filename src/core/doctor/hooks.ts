// doctor's hook checks: whether Claude Code, Codex and OpenCode run Orchard's hooks, read from
// their own settings files (Orchard's entries name its commands). A harness that is not set up on
// this machine (no config directory of its own) needs no hooks: ✔, said so.
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { readPlainFile } from "../shared/files.js";
import type { DoctorCheck } from "./check.js";

const text = (file: string): string => readPlainFile(file, 1_048_576)?.toString("utf8") ?? "";

/** The first of `files` whose text holds `needle`. */
const holding = (files: readonly string[], needle: string): string | undefined => files.find((f) => text(f).includes(needle));

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).map((name) => join(dir, name));
  } catch {
    return []; // no such directory: nothing installed there
  }
}

function one(name: string, set: { present: boolean; found: string | undefined; fix: string; where: string }): DoctorCheck {
  if (set.found) return { name, ok: true, detail: `hooks in ${set.found}`, fix: null };
  if (!set.present) return { name, ok: true, detail: "not set up on this machine: no hooks needed", fix: null };
  return { name, ok: false, detail: `no Orchard hooks (${set.where})`, fix: set.fix };
}

export function hookChecks(primary: string | null): DoctorCheck[] {
  const claudeDir = process.env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude");
  const claudeFiles = [join(claudeDir, "settings.json"), ...(primary ? ["settings.json", "settings.local.json"].map((f) => join(primary, ".claude", f)) : [])];
  const codexDir = process.env.CODEX_HOME || join(homedir(), ".codex");
  const opencodeDirs = [join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "opencode"), ...(primary ? [join(primary, ".opencode")] : [])];
  const opencodeFiles = opencodeDirs.flatMap((d) => [...listDir(join(d, "plugin")), ...listDir(join(d, "plugins"))]);
  return [
    one("claude-code", {
      present: existsSync(claudeDir) || (primary !== null && existsSync(join(primary, ".claude"))),
      found: holding(claudeFiles, "claude-code worktree-create"),
      fix: "orchard claude-code install --user",
      where: claudeFiles[0] as string,
    }),
    one("codex", {
      present: existsSync(codexDir),
      found: holding([join(codexDir, "hooks.json")], "codex session-start"),
      fix: "orchard codex install",
      where: join(codexDir, "hooks.json"),
    }),
    one("opencode", {
      present: opencodeDirs.some((d) => existsSync(d)),
      found: holding(opencodeFiles, "orchard"),
      fix: "orchard opencode install --user",
      where: opencodeDirs.map((d) => join(d, "plugin")).join(", "),
    }),
  ];
}
