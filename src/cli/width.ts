// Display width of terminal text: what a monospace terminal shows, not String.length. A grapheme
// (Intl.Segmenter) is 0 columns when it is only combining marks or zero-width characters, 2 when
// it starts with an East Asian Wide or Fullwidth character or is an emoji presentation, else 1.
// ANSI colour sequences count 0. Cutting keeps whole graphemes and puts "…" where text went.

// Made at first use, and only for text that is not plain ASCII: creating it loads ICU's break
// rules, ≈ 20 ms of every command's start when it was made at load.
let segmenter: Intl.Segmenter | undefined;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ANSI = /\x1b\[[0-9;]*m/g;

/** East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15, plus the emoji blocks terminals draw wide. */
const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f1e6, 0x1f1ff],
  [0x1f200, 0x1f251],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

function isWide(cp: number): boolean {
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = WIDE[mid] as [number, number];
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

const ZERO = /^[\p{M}\p{Cf}\u200b]+$/u;

/** Columns one grapheme takes. */
export function graphemeWidth(g: string): number {
  if (ZERO.test(g)) return 0;
  const first = g.codePointAt(0) ?? 0;
  if (first < 0x20 || (first >= 0x7f && first < 0xa0)) return 0;
  return isWide(first) || g.includes("\ufe0f") ? 2 : 1;
}

export const stripAnsi = (text: string): string => text.replace(ANSI, "");

export function graphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return text.split(""); // one grapheme per character
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Columns a line of text takes on a terminal. */
export function displayWidth(text: string): number {
  const plain = stripAnsi(text);
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  let width = 0;
  for (const g of graphemes(plain)) width += graphemeWidth(g);
  return width;
}

/** Pads with spaces to `width` columns. */
export function padEnd(text: string, width: number): string {
  const gap = width - displayWidth(text);
  return gap > 0 ? text + " ".repeat(gap) : text;
}

/** The longest prefix (or suffix, `fromEnd`) of whole graphemes that fits in `width` columns. */
function fit(parts: readonly string[], width: number, fromEnd: boolean): string {
  const taken: string[] = [];
  let used = 0;
  for (let i = 0; i < parts.length; i++) {
    const g = parts[fromEnd ? parts.length - 1 - i : i] as string;
    const w = graphemeWidth(g);
    if (used + w > width) break;
    used += w;
    taken.push(g);
  }
  return fromEnd ? taken.reverse().join("") : taken.join("");
}

/** Text cut at its end to `width` columns, "…" marking the cut (plain text: no colour inside). */
export function truncateEnd(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return "";
  return fit(graphemes(text), width - 1, false) + "…";
}

/** Text cut in its middle to `width` columns (a path keeps its root and its last component). */
export function truncateMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return truncateEnd(text, width);
  const parts = graphemes(text);
  const tail = Math.ceil((width - 1) / 2);
  const end = fit(parts, tail, true);
  const start = fit(parts, width - 1 - displayWidth(end), false);
  return `${start}…${end}`;
}
