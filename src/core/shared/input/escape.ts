// Control characters and bidirectional overrides (SPEC v3 §4.2): refused in what a caller names
// (owner, task, branch: `unsafeCharacter`), and shown, never obeyed, wherever existing data is
// rendered (`escapeControl`: a branch, path, owner or task recorded before the rule, or read from
// git, could otherwise reorder what a person reads — U+202E renders "txt.exe" as "exe.txt" — or
// move the cursor). C0 controls become their control pictures (newline ␊, escape ␛), every other
// control, bidi mark, override, isolate or line/paragraph separator `\u{…}`.

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

export function escapeControl(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const cp = c.codePointAt(0) as number;
    if (cp < 0x20) return String.fromCodePoint(0x2400 + cp);
    if (cp === 0x7f) return "\u2421";
    return `\\u{${cp.toString(16)}}`;
  });
}

/** The first control or bidi character of `text`, described (`U+202E, a bidirectional control`), or null when there is none. */
export function unsafeCharacter(text: string): string | null {
  const m = new RegExp(UNSAFE.source).exec(text);
  if (!m) return null;
  const cp = (m[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
  const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(m[0]);
  return `U+${cp}, ${bidi ? "a bidirectional control character" : "a control character"}`;
}
