// git's index file (Documentation/gitformat-index.txt), read for two facts only: its gitlinks (mode
// 160000) and the paths of its entries. What `git ls-files --stage` would list, without a process
// per worktree (a hygiene of 20 worktrees paid ~0.5 s in forks for it). Versions 2, 3 and 4 with
// SHA-1 ids; anything else — a split index (`link`: most entries live in a shared file), another
// version, an entry that runs past the file, a checksum that does not match (a SHA-256 index, or
// git's `index.skipHash`) — is null, and the caller asks git. Paths are decoded as git's output is
// (bytes.ts), so they name the same files. Never a guess: a gitlink this parser missed would be a
// nested repository deleted.
import { createHash } from "node:crypto";
import { decodeGitBytes } from "../bytes.js";

/** The two facts: gitlinks (mode 160000, any stage) and every directory that holds an entry (no duplicates). */
export interface IndexShape {
  gitlinks: string[];
  dirs: string[];
}

const HASH = 20; // SHA-1; a SHA-256 index fails the checksum below and is read by git
const STAT = 40; // ctime, mtime (seconds and nanoseconds), dev, ino, mode, uid, gid, size: ten 32-bit fields
const EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;
/** An index up to this size is read as one latin1 string (parseIndexShape); a larger one byte by byte, not copied. */
const TEXT_MAX = 64 * 1024 * 1024;
export const GITLINK_MODE = 0o160000;

/** The shape of an index, or null where the file is not what this reads. */
export function parseIndexShape(bytes: Buffer): IndexShape | null {
  if (bytes.length < 12 + HASH || bytes.toString("latin1", 0, 4) !== "DIRC") return null;
  const body = bytes.subarray(0, bytes.length - HASH);
  if (
    !createHash("sha1")
      .update(body)
      .digest()
      .equals(bytes.subarray(bytes.length - HASH))
  )
    return null;
  const version = body.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = body.readUInt32BE(8);
  const shape = new Shape();
  const length = body.length;
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  // versions 2 and 3 (up to TEXT_MAX) read as one latin1 string (a character a byte): each name's end, its last
  // slash and the last directory's compare are string builtins, fast in code still cold (a command line's), where
  // a byte loop or a Buffer method an entry (readUInt32BE, indexOf, each with its checks) cost a repeated `add`
  // ~5 ms at 2,000 entries; the fields are read byte by byte
  const chars = version !== 4 && length <= TEXT_MAX ? body.toString("latin1") : null;
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + STAT + HASH + 2 > length) return null;
    const gitlink = uint32(body, at + 24) === GITLINK_MODE;
    const flags = ((body[at + STAT + HASH] as number) << 8) | (body[at + STAT + HASH + 1] as number);
    at += STAT + HASH + 2;
    if (flags & EXTENDED) {
      if (version < 3 || at + 2 > length) return null;
      at += 2;
    }
    const named = flags & NAME_MASK;
    if (version === 4) {
      const strip = readVarint(body, at);
      if (strip === null || strip.value > previous.length) return null;
      at = strip.next;
      const end = body.indexOf(0, at);
      if (end < 0) return null;
      previous = Buffer.concat([previous.subarray(0, previous.length - strip.value), body.subarray(at, end)]);
      at = end + 1;
      if (named !== NAME_MASK && named !== previous.length) return null;
      shape.add(previous, 0, previous.length, gitlink);
    } else if (chars !== null) {
      const nul = chars.indexOf("\0", at); // the name's end: its first NUL, which the length in the flags names (below 4,095 bytes)
      if (nul < 0 || (named !== NAME_MASK && named !== nul - at)) return null;
      shape.addChars(chars, at, nul, gitlink);
      // 1 to 8 NULs end the entry at a multiple of 8 bytes from its start
      at = start + ((nul - start + 8) & ~7);
      if (at > length) return null;
    } else {
      let nul = at; // as above, byte by byte (an index too large to copy as a string)
      while (nul < length && body[nul] !== 0) nul++;
      if (nul >= length || (named !== NAME_MASK && named !== nul - at)) return null;
      shape.add(body, at, nul, gitlink);
      // 1 to 8 NULs end the entry at a multiple of 8 bytes from its start
      at = start + ((nul - start + 8) & ~7);
      if (at > length) return null;
    }
  }
  // the extensions: a split index keeps its entries in another file
  while (at + 8 <= body.length) {
    const signature = body.toString("latin1", at, at + 4);
    const size = body.readUInt32BE(at + 4);
    if (signature === "link") return null;
    at += 8 + size;
  }
  return at === body.length ? { gitlinks: shape.gitlinks, dirs: [...shape.dirs] } : null;
}

/** The shape of entries given as paths (`git ls-files --stage` read by the caller). */
export function shapeOf(entries: readonly { mode: number; path: string }[]): IndexShape {
  const gitlinks: string[] = [];
  const dirs = new Set<string>();
  for (const { mode, path } of entries) {
    if (mode === GITLINK_MODE) gitlinks.push(path);
    addDirs(dirs, path);
  }
  return { gitlinks, dirs: [...dirs] };
}

function addDirs(dirs: Set<string>, path: string): void {
  for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
    const dir = path.slice(0, slash);
    if (dirs.has(dir)) return; // its parents are in already
    dirs.add(dir);
  }
}

/** Builds the shape from names as bytes, decoding a directory only when it differs from the last one's (the index is sorted). */
class Shape {
  readonly gitlinks: string[] = [];
  readonly dirs = new Set<string>();
  private last: Buffer = Buffer.alloc(0);

  add(buf: Buffer, start: number, end: number, gitlink: boolean): void {
    if (gitlink) this.gitlinks.push(text(buf, start, end));
    let slash = end - 1;
    while (slash > start && buf[slash] !== 0x2f) slash--;
    if (slash <= start) return; // at the top level
    if (sameBytes(this.last, buf, start, slash)) return;
    this.last = Buffer.from(buf.subarray(start, slash));
    addDirs(this.dirs, text(buf, start, end));
  }

  /** add, of a name in a latin1 string of the index (a character a byte). */
  addChars(chars: string, start: number, end: number, gitlink: boolean): void {
    if (gitlink) this.gitlinks.push(latin1Text(chars.slice(start, end)));
    const slash = chars.lastIndexOf("/", end - 1); // before `start` (another entry's bytes): none in this name
    if (slash <= start) return; // at the top level
    if (this.lastChars.length === slash - start && chars.startsWith(this.lastChars, start)) return;
    this.lastChars = chars.slice(start, slash);
    addDirs(this.dirs, latin1Text(chars.slice(start, end)));
  }

  private lastChars = "";
}

/** A name read as latin1 (a character a byte), as git's output is decoded (text). */
const latin1Text = (name: string): string => (/[^\x00-\x7f]/.test(name) ? decodeGitBytes(Buffer.from(name, "latin1")) : name);

function sameBytes(a: Buffer, buf: Buffer, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== buf[start + i]) return false;
  return true;
}

/** A big-endian 32-bit field. */
const uint32 = (buf: Buffer, at: number): number =>
  (((buf[at] as number) << 24) | ((buf[at + 1] as number) << 16) | ((buf[at + 2] as number) << 8) | (buf[at + 3] as number)) >>> 0;

/** `buf[start, end)` as git's output is decoded (bytes.ts); plain ASCII without the UTF-8 check. */
function text(buf: Buffer, start: number, end: number): string {
  for (let i = start; i < end; i++) if ((buf[i] as number) >= 0x80) return decodeGitBytes(buf.subarray(start, end));
  return buf.toString("latin1", start, end);
}

/** git's offset varint (varint.c): each continuation adds one before shifting. */
function readVarint(buf: Buffer, at: number): { value: number; next: number } | null {
  let i = at;
  if (i >= buf.length) return null;
  let c = buf[i++] as number;
  let value = c & 127;
  while (c & 128) {
    if (i >= buf.length || value > 2 ** 40) return null;
    c = buf[i++] as number;
    value = (value + 1) * 128 + (c & 127);
  }
  return { value, next: i };
}
