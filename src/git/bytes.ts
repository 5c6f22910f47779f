// Git's names are bytes (SPEC §4.2): a branch created outside Orchard may hold bytes that are not
// UTF-8. Git's output is decoded losslessly — a byte that is not part of valid UTF-8 becomes the
// lone surrogate U+DC00+byte ("surrogateescape"), never U+FFFD — so a name read from git is
// carried with its exact bytes, and passed back to git (run.ts) as those same bytes.
import { isUtf8 } from "node:buffer";

const ESCAPED = /(?<![\ud800-\udbff])[\udc80-\udcff]/; // not the low half of a real pair

/** Git's bytes as text: valid UTF-8 as is, every other byte escaped as U+DC80–U+DCFF. */
export function decodeGitBytes(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  let text = "";
  let start = 0; // the valid run not yet copied
  let i = 0;
  while (i < bytes.length) {
    const length = validSequence(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    text += bytes.toString("utf8", start, i) + String.fromCharCode(0xdc00 + (bytes[i] as number));
    start = ++i;
  }
  return text + bytes.toString("utf8", start);
}

/** The length of the valid UTF-8 sequence at `i`, or 0 (overlong forms, surrogates and code points past U+10FFFF are invalid). */
function validSequence(b: Buffer, i: number): number {
  const first = b[i] as number;
  if (first < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && (b[i + k] as number) >= lo && (b[i + k] as number) <= hi;
  if (first >= 0xc2 && first <= 0xdf) return cont(1) ? 2 : 0;
  if (first === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (first === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (first >= 0xe1 && first <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (first === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (first >= 0xf1 && first <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (first === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** Whether `text` carries bytes that are not UTF-8 (escaped by decodeGitBytes). */
export function hasEscapedBytes(text: string): boolean {
  return ESCAPED.test(text);
}

/** The bytes `text` stands for: the inverse of decodeGitBytes. */
export function encodeGitBytes(text: string): Buffer {
  if (!hasEscapedBytes(text)) return Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xdc80 || code > 0xdcff) continue;
    const before = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (before >= 0xd800 && before <= 0xdbff) continue; // the low half of a real pair
    parts.push(Buffer.from(text.slice(start, i), "utf8"), Buffer.from([code - 0xdc00]));
    start = i + 1;
  }
  parts.push(Buffer.from(text.slice(start), "utf8"));
  return Buffer.concat(parts);
}

/**
 * A word for `printf '%b'` in a POSIX shell that yields exactly `text`'s bytes: an argv word Node
 * cannot pass (it encodes every string as UTF-8) goes through the shell that way.
 */
export function printfWord(text: string): string {
  let word = "";
  for (const byte of encodeGitBytes(text))
    word += byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : `\\0${byte.toString(8).padStart(3, "0")}`;
  return word;
}
