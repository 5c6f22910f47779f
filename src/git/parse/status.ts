import { ParseError, quote } from "./errors.js";

export type StatusPathKind = "changed" | "renamed" | "unmerged" | "untracked" | "ignored";

export interface StatusPath {
  kind: StatusPathKind;
  path: string;
  xy?: string;
  origPath?: string;
}

export interface StatusSummary {
  branchHead: string | null; // "# branch.head" value; null when "(detached)"
  oid: string | null; // "# branch.oid"; null for "(initial)"
  upstream: string | null; // "# branch.upstream"
  ahead: number | null; // "# branch.ab +A -B"
  behind: number | null;
  tracked: number; // entries of kind 1 and 2 (changed / renamed-copied)
  untracked: number; // "?" entries
  ignored: number; // "!" entries
  conflicted: number; // "u" entries
  paths: StatusPath[];
}

const FORMAT = "status --porcelain=v2 -z";
const XY = "[.MTADRCU]{2}";
const SUB = "(?:N\\.\\.\\.|S[C.][M.][U.])";
const MODE = "[0-7]{6}";
const OID = "[0-9a-f]{40}(?:[0-9a-f]{24})?";
// The `s` flag lets the trailing path contain newlines (raw under -z).
const CHANGED = new RegExp(`^1 (${XY}) ${SUB} ${MODE} ${MODE} ${MODE} ${OID} ${OID} (.+)$`, "s");
const RENAMED = new RegExp(`^2 (${XY}) ${SUB} ${MODE} ${MODE} ${MODE} ${OID} ${OID} [RC]\\d{1,3} (.+)$`, "s");
const UNMERGED = new RegExp(`^u ([ADU]{2}) ${SUB} ${MODE} ${MODE} ${MODE} ${MODE} ${OID} ${OID} ${OID} (.+)$`, "s");
const OID_ONLY = new RegExp(`^${OID}$`);

/** Format: `git status --porcelain=v2 -z --branch` — NUL-terminated entries (`1`, `2`, `u`, `?`, `!`) and `# key value` headers (unknown headers ignored, as git's docs require); a `2` entry is followed by one extra NUL-terminated field, the original path; paths are raw. */
export function parseStatusV2(stdout: string): StatusSummary {
  const summary: StatusSummary = {
    branchHead: null,
    oid: null,
    upstream: null,
    ahead: null,
    behind: null,
    tracked: 0,
    untracked: 0,
    ignored: 0,
    conflicted: 0,
    paths: [],
  };
  if (stdout !== "" && !stdout.endsWith("\0")) {
    throw new ParseError(FORMAT, "output must be NUL-terminated; was -z passed?");
  }
  const fields = stdout.split("\0").slice(0, -1);
  const it = fields[Symbol.iterator]();
  for (const field of it) {
    let m: RegExpExecArray | null;
    if (field.startsWith("# ")) {
      parseHeader(field, summary);
    } else if ((m = CHANGED.exec(field))) {
      summary.tracked++;
      summary.paths.push({ kind: "changed", path: m[2]!, xy: m[1]! });
    } else if ((m = RENAMED.exec(field))) {
      const orig = it.next();
      if (orig.done || orig.value === "") {
        throw new ParseError(FORMAT, `rename/copy entry ${quote(field)} lacks its original-path field`);
      }
      summary.tracked++;
      summary.paths.push({ kind: "renamed", path: m[2]!, xy: m[1]!, origPath: orig.value });
    } else if ((m = UNMERGED.exec(field))) {
      summary.conflicted++;
      summary.paths.push({ kind: "unmerged", path: m[2]!, xy: m[1]! });
    } else if (/^\? ./s.test(field)) {
      summary.untracked++;
      summary.paths.push({ kind: "untracked", path: field.slice(2) });
    } else if (/^! ./s.test(field)) {
      summary.ignored++;
      summary.paths.push({ kind: "ignored", path: field.slice(2) });
    } else {
      throw new ParseError(FORMAT, `unknown or malformed entry ${quote(field)}`);
    }
  }
  return summary;
}

function parseHeader(line: string, summary: StatusSummary): void {
  const space = line.indexOf(" ", 2);
  const key = space < 0 ? line.slice(2) : line.slice(2, space);
  const value = space < 0 ? "" : line.slice(space + 1);
  const bad = () => new ParseError(FORMAT, `malformed header ${quote(line)}`);
  switch (key) {
    case "branch.oid":
      if (value !== "(initial)" && !OID_ONLY.test(value)) throw bad();
      summary.oid = value === "(initial)" ? null : value;
      break;
    case "branch.head":
      if (value === "") throw bad();
      summary.branchHead = value === "(detached)" ? null : value;
      break;
    case "branch.upstream":
      if (value === "") throw bad();
      summary.upstream = value;
      break;
    case "branch.ab": {
      const ab = /^\+(\d+) -(\d+)$/.exec(value);
      if (!ab) throw bad();
      summary.ahead = Number(ab[1]);
      summary.behind = Number(ab[2]);
      break;
    }
    default: // e.g. "# stash <N>": git documents that unknown headers must be ignored.
  }
}
