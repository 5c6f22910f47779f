// Text an agent wrote (a repository's `.orchard.json` commands, a worktree's path, a branch in a
// salvage ref, a reason's message) on its way to Claude's model (SessionStart `additionalContext`)
// or to a person (a hook's stderr), SPEC v5 §4: each string JSON-quoted with every control, bidi
// and line-separator character escaped, so it can start no line ("Assistant: …") and move no
// cursor; each capped, lists capped, and the whole note capped well under what Claude Code takes,
// saying what it left out rather than being dropped.

/** At most this many characters of one repository-supplied string. */
export const ITEM_MAX = 200;
/** At most this many strings of one list. */
export const LIST_MAX = 10;
/** At most this many characters of the whole note for the model (Claude Code keeps 10,000). */
export const CONTEXT_MAX = 8_000;

// what JSON.stringify leaves as it is but a terminal or a reader would obey
const UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const hex = (c: string): string => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`;

/** `text` as a JSON string, control-free, cut at `max` characters (saying so). */
export function quoted(text: string, max = ITEM_MAX): string {
  const chars = [...text];
  const cut = chars.length > max;
  const json = JSON.stringify(cut ? chars.slice(0, max).join("") : text).replace(UNSAFE, hex);
  return cut ? `${json} (cut: ${chars.length} characters in all)` : json;
}

/** A list of quoted strings, at most LIST_MAX of them, the rest counted. */
export function quotedList(items: readonly string[]): string {
  const shown = items.slice(0, LIST_MAX).map((item) => quoted(item));
  const more = items.length - shown.length;
  return `[${shown.join(", ")}]${more > 0 ? ` and ${more} more` : ""}`;
}

/** Orchard's own sentence that may carry repository text: one line, every control escaped, cut at `max`. */
export function oneLine(text: string, max = 2_000): string {
  const chars = [...text];
  const line = (chars.length > max ? chars.slice(0, max).join("") : text).replace(CONTROL, hex);
  return chars.length > max ? `${line}… (cut: ${chars.length} characters in all)` : line;
}

/** The note's lines joined, within CONTEXT_MAX: lines that do not fit are counted in a last line, never dropped without a word. */
export function capContext(lines: readonly string[]): string {
  const kept: string[] = [];
  let size = 0;
  for (const [i, line] of lines.entries()) {
    const left = lines.length - i;
    if (size + line.length + 1 > CONTEXT_MAX - 200) {
      kept.push(`Orchard: ${left} more note(s) were left out to keep this short; \`orchard salvage list\` and \`orchard hygiene\` show what is left.`);
      break;
    }
    kept.push(line);
    size += line.length + 1;
  }
  return kept.join("\n");
}
