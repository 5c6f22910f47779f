// The linked worktrees' paths read from the admin files, as git itself builds `git worktree list`
// (worktree.c get_worktrees: each entry of `<common>/worktrees` whose `gitdir` reads non-empty, its
// path that record right-trimmed of whitespace with "/.git" dropped; builtin/worktree.c list: the
// linked ones sorted by path with fspathcmp, strcmp or strcasecmp by core.ignorecase). GSD's
// read-only calls need nothing else of the listing, so no git is asked (issue 48 item 4: at 500
// worktrees git's listing and the admin files' vetting before it were most of the call): nothing
// can wait on a planted file, since the only files read are the `gitdir` records, each opened
// non-blocking and not through a link, and read only when fstat says a regular file of at most
// 64 KiB (SPEC §4.10's vetting, at the read). `HEAD`, `locked` and `commondir` are not read.
//
// Answered only where this is provably git's answer, else null (fast.ts then asks git as before):
// a repository git is pinned to at `repoRoot` (its `.git` there: pin.ts, as every git call of
// Orchard) whose config includes nothing, sets no repository format above 1 and no extension
// but `worktreeConfig` and `objectFormat` (git refuses others; neither moves a path); every record
// regular, absolute, printable ASCII (no tab or control byte, no space at its end: no locale,
// decoding, trimming or quoting question); and the paths strictly ordered both by bytes and
// ignoring ASCII case, so the order is git's whatever core.ignorecase says (and no two entries
// tie, which git's qsort would order as it likes). A record that is absent, or names no file, is left out as git leaves it out.
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync } from "node:fs";
import { readPlainFile } from "../git/input/plain-file.js";
import { pinArgs } from "../git/input/pin.js";
import { commonDirOf } from "../git/programs/policy.js";

const MAX_RECORD = 64 * 1024;
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0) | (constants.O_NOFOLLOW ?? 0);
/** One buffer for every record (each is read whole, then copied out as text), made by the first read. */
let shared: Buffer | null = null;

/** A record's bytes as text, "" when git would skip it (absent, empty), null when git's reading of it is not provably this one. */
function record(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "" : null; // a link (ELOOP), no permission: git's way is not ours to guess
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_RECORD) return null;
    const room = (shared ??= Buffer.allocUnsafe(MAX_RECORD + 1));
    // read to its end; a read that brings the size fstat gave is taken as the end (no second read of 0 bytes per record)
    let length = 0;
    for (let n = -1; n !== 0 && length <= MAX_RECORD && !(length === st.size && n > 0); length += n) n = readSync(fd, room, length, room.length - length, null);
    return length > MAX_RECORD ? null : room.toString("latin1", 0, length);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** git's path of a record (strbuf_rtrim, then "/.git" dropped), "" to skip it, null when it is not provably git's (see above). */
function pathOf(text: string): string | null {
  if (text === "") return "";
  const trimmed = text.replace(/[ \t\n\r]+$/, ""); // git's isspace: these four
  if (!trimmed.endsWith("/.git")) return null; // as git writes it (older gits listed another path for any other)
  const path = trimmed.slice(0, -"/.git".length);
  return /^\/[\x20-\x7e]*[\x21-\x7e]$/.test(path) ? path : null; // absolute, printable ASCII, no space at its end
}

/** The config says nothing that could make git fail or list otherwise than read here. */
function plainConfig(commonDir: string): boolean {
  const config = readPlainFile(`${commonDir}/config`)?.toString("latin1");
  if (config === undefined) return false;
  let section = "";
  for (const raw of config.split("\n")) {
    const line = raw.replace(/[;#].*$/, "").trim();
    if (line === "") continue;
    if (line.endsWith("\\")) return false; // a value continued on the next line: not read here
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\](.*)$/.exec(line);
    if (line.startsWith("[")) {
      if (!head || head[2]!.trim() !== "") return false; // a header with a key after it, or one not read here
      section = head[1]!.toLowerCase();
      if (section === "include" || section === "includeif") return false;
      continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!key) return false; // a continuation or anything else: not read here
    const name = key[1]!.toLowerCase();
    if (section === "extensions" && name !== "worktreeconfig" && name !== "objectformat") return false;
    if (section === "core" && name === "repositoryformatversion" && !/^[01]$/.test((key[2] ?? "").trim())) return false;
  }
  return true;
}

/** The linked worktrees' paths in git's order, or null: ask git. */
export function linkedPathsByHand(repoRoot: string): string[] | null {
  if (pinArgs(repoRoot).length === 0) return null; // not a worktree's top level: git finds its way there, ask it
  const commonDir = commonDirOf(repoRoot);
  if (commonDir === null || !plainConfig(commonDir)) return null;
  const root = `${commonDir}/worktrees`;
  let ids: string[];
  try {
    ids = readdirSync(root);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? [] : null; // none: git lists the main worktree alone
  }
  const paths: string[] = [];
  for (const id of ids) {
    const text = record(`${root}/${id}/gitdir`);
    const path = text === null ? null : pathOf(text);
    if (path === null) return null;
    if (path !== "") paths.push(path);
  }
  paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 1; i < paths.length; i++) {
    const [a, b] = [paths[i - 1]!, paths[i]!];
    if (!(a < b) || !(a.toLowerCase() < b.toLowerCase())) return null; // a tie, or an order core.ignorecase would change
  }
  return paths;
}
