// Text from git, the registry or a user's files printed on a terminal: control characters and
// bidirectional overrides are shown, never obeyed (a branch name or path could otherwise move the
// cursor, clear the screen or reorder what a person reads). C0 controls become their control
// pictures (newline ␊, escape ␛), every other control, bidi or line/paragraph separator `\u{…}`.

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

export function escapeControl(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const cp = c.codePointAt(0) as number;
    if (cp < 0x20) return String.fromCodePoint(0x2400 + cp);
    if (cp === 0x7f) return "\u2421";
    return `\\u{${cp.toString(16)}}`;
  });
}
