// Reading which harness made a worktree: the shapes are matched first (pure, each harness's own
// file), then only the marker files a matched shape names are read — lstat-vetted (a link, FIFO or
// device is never followed or opened) and bounded (git/input/plain-file.ts). One reader per
// command: files every worktree shares (a repository's marker, a harness's state file) are read once.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { readPlainFile } from "../../git/input/plain-file.js";
import { harnessRoots } from "./roots.js";
import { CODEX_MARKER, codex, parseCodexThread } from "./codex.js";
import { opencode } from "./opencode.js";
import { vibeKanban } from "./vibe-kanban.js";
import { cursor } from "./cursor.js";
import { conductor } from "./conductor.js";
import { sculptor } from "./sculptor.js";
import { uzi } from "./uzi.js";
import { copilot } from "./copilot.js";
import { workmux } from "./workmux.js";
import { gemini } from "./gemini.js";
import { crystal } from "./crystal.js";
import { claudeCode } from "./claude-code.js";
import { ccmanager } from "./ccmanager.js";
import type { HarnessFact, HarnessProbe, HarnessRoots, MarkerRead, WorktreeShape } from "./types.js";

/** In this order: a marker that names its harness anywhere, then paths, then branch patterns, then a configured pattern. */
export const PROBES: readonly HarnessProbe[] = [
  codex,
  opencode,
  vibeKanban,
  cursor,
  conductor,
  sculptor,
  uzi,
  copilot,
  workmux,
  gemini,
  crystal,
  claudeCode,
  ccmanager,
];

/** A marker or metadata file is small: a harness's state file at most this. */
const MARKER_MAX = 1_048_576;

export interface HarnessReader {
  roots: HarnessRoots;
  files: Map<string, MarkerRead>;
}

/** `orchard`: Orchard's workspace home (Copilot's worktrees under `<home>/copilot`, the template its install sets). */
export function harnessReader(env: NodeJS.ProcessEnv = process.env, orchard: string | null = null): HarnessReader {
  return { roots: harnessRoots(env, orchard), files: new Map() };
}

export function readMarker(path: string): MarkerRead {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return { kind: "absent" };
  if (st.isDirectory()) return { kind: "directory" };
  if (!st.isFile()) return { kind: "unreadable", why: "not a plain file" };
  const bytes = readPlainFile(path, MARKER_MAX);
  return bytes === null ? { kind: "unreadable", why: `not a plain file of at most ${MARKER_MAX} bytes` } : { kind: "text", text: bytes.toString("utf8") };
}

function cached(reader: HarnessReader, path: string): MarkerRead {
  let read = reader.files.get(path);
  if (read === undefined) reader.files.set(path, (read = readMarker(path)));
  return read;
}

/** The harness whose shape the worktree has, with whether it still tracks it; null for none. */
export function readHarness(w: WorktreeShape, reader: HarnessReader): HarnessFact | null {
  for (const probe of PROBES) {
    const claim = probe.match(w, reader.roots);
    if (claim === null) continue;
    const judged = claim.judge(claim.reads.map((path) => cached(reader, path)));
    if (judged === null) continue;
    const session = judged.session ?? claim.session;
    // Orchard's own management wins over a shape: a worktree it made or adopted is judged by its lease and lock,
    // unless a marker of the harness still names a live session of this very worktree
    const tracked = w.managed && judged.marker !== true ? false : judged.tracked;
    return { name: claim.name, ...(session !== undefined ? { session } : {}), tracked };
  }
  return null;
}

/** The Codex thread that owns the worktree whose admin dir is `admin` (its `codex-thread.json`, vetted), or null (for the Codex session hooks). */
export function readCodexThread(admin: string): string | null {
  const marker = readMarker(join(admin, CODEX_MARKER));
  if (marker.kind !== "text") return null;
  const parsed = parseCodexThread(marker.text);
  return "thread" in parsed ? parsed.thread : null;
}
