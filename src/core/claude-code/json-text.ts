// Edits of a JSON text that keep its formatting (SPEC v3 §3.14: install and uninstall change only
// Orchard's lines). The text is parsed into a tree of value positions; an edit replaces one range
// and writes new values in the file's own style — compact or indented (its indent unit, its line
// ends, its spacing after `:` and `,`). Every byte outside the edited range stays as it was. Pure.

/** A parsed value with its [start, end) range in the text. */
export type JsonNode =
  | { kind: "object"; start: number; end: number; members: JsonMember[] }
  | { kind: "array"; start: number; end: number; items: JsonNode[] }
  | { kind: "scalar"; start: number; end: number; value: string | number | boolean | null };

export interface JsonMember {
  key: string;
  /** Where the key's opening quote is. */
  start: number;
  value: JsonNode;
}

/** How the file writes JSON: new values are written the same way. */
export interface JsonStyle {
  /** One line: no line break inside the root value. */
  compact: boolean;
  indent: string;
  eol: string;
  /** What follows `:` and `,` on one line (compact files only: `:`/`,` or `: `/`, `). */
  colon: string;
  comma: string;
}

/** Parses valid JSON text (check it with JSON.parse first) into a tree of positions. */
export function parseJsonTree(text: string): JsonNode {
  let at = 0;
  const skip = (): void => {
    while (at < text.length && " \t\r\n".includes(text[at] as string)) at++;
  };
  const string = (): string => {
    const start = at++;
    while (text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const value = (): JsonNode => {
    skip();
    const start = at;
    const c = text[at];
    if (c === "{") {
      at++;
      const members: JsonMember[] = [];
      skip();
      while (text[at] !== "}") {
        skip();
        const keyStart = at;
        const key = string();
        skip();
        at++; // ':'
        members.push({ key, start: keyStart, value: value() });
        skip();
        if (text[at] === ",") at++;
        skip();
      }
      at++;
      return { kind: "object", start, end: at, members };
    }
    if (c === "[") {
      at++;
      const items: JsonNode[] = [];
      skip();
      while (text[at] !== "]") {
        items.push(value());
        skip();
        if (text[at] === ",") at++;
        skip();
      }
      at++;
      return { kind: "array", start, end: at, items };
    }
    if (c === '"') {
      const value = string();
      return { kind: "scalar", start, end: at, value };
    }
    while (at < text.length && !",]} \t\r\n".includes(text[at] as string)) at++;
    return { kind: "scalar", start, end: at, value: JSON.parse(text.slice(start, at)) as number | boolean | null };
  };
  return value();
}

/** The file's style; an empty file gets JSON.stringify(x, null, 2)'s. */
export function detectStyle(text: string, root: JsonNode | null): JsonStyle {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  if (root === null) return { compact: false, indent: "  ", eol, colon: ": ", comma: "," };
  const inner = text.slice(root.start, root.end);
  if (!inner.includes("\n")) {
    const first = root.kind === "object" ? root.members[0] : undefined;
    const afterKey = first ? text.slice(first.start, first.value.start) : ":";
    return { compact: true, indent: "", eol, colon: afterKey.endsWith(" ") ? ": " : ":", comma: /,\s/.test(inner) ? ", " : "," };
  }
  // the indent unit: the shortest indentation of a line (a hand-written file may be uneven)
  const indents = [...inner.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1] as string).sort((a, b) => a.length - b.length);
  return { compact: false, indent: indents[0] ?? "  ", eol, colon: ": ", comma: "," };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `value` written in `style`, as if it stood at `depth` (its closing bracket indented that far). */
export function renderJson(value: Json, style: JsonStyle, depth: number): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const entries: [string | null, Json][] = Array.isArray(value) ? value.map((v) => [null, v]) : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return `${open}${close}`;
  const colon = style.compact ? style.colon : ": ";
  const parts = entries.map(([key, v]) => `${key === null ? "" : `${JSON.stringify(key)}${colon}`}${renderJson(v, style, depth + 1)}`);
  if (style.compact) return `${open}${parts.join(style.comma)}${close}`;
  const pad = (d: number): string => style.indent.repeat(d);
  return `${open}${style.eol}${parts.map((p) => pad(depth + 1) + p).join(`,${style.eol}`)}${style.eol}${pad(depth)}${close}`;
}

const splice = (text: string, start: number, end: number, insert: string): string => text.slice(0, start) + insert + text.slice(end);

/** Replaces one value (at `depth`) with `value`. */
export function replaceValue(text: string, node: JsonNode, value: Json, style: JsonStyle, depth: number): string {
  return splice(text, node.start, node.end, renderJson(value, style, depth));
}

/** Text after the last element `last` of a container at `depth`: a comma and the new element on its own line. */
function appendAfter(text: string, lastEnd: number, element: string, style: JsonStyle, depth: number): string {
  const gap = style.compact ? style.comma : `,${style.eol}${style.indent.repeat(depth + 1)}`;
  return splice(text, lastEnd, lastEnd, gap + element);
}

/** Adds `"key": value` as the last member of the object `node` (at `depth`). */
export function addMember(text: string, node: Extract<JsonNode, { kind: "object" }>, key: string, value: Json, style: JsonStyle, depth: number): string {
  const last = node.members.at(-1);
  if (!last) return replaceValue(text, node, { [key]: value }, style, depth);
  const colon = style.compact ? style.colon : ": ";
  return appendAfter(text, last.value.end, `${JSON.stringify(key)}${colon}${renderJson(value, style, depth + 1)}`, style, depth);
}

/** Adds `value` as the last item of the array `node` (at `depth`). */
export function appendItem(text: string, node: Extract<JsonNode, { kind: "array" }>, value: Json, style: JsonStyle, depth: number): string {
  const last = node.items.at(-1);
  if (!last) return replaceValue(text, node, [value], style, depth);
  return appendAfter(text, last.end, renderJson(value, style, depth + 1), style, depth);
}

/**
 * Removes element `index` of a container whose elements span `ranges` ([start, end) each): with
 * the comma before it (the comma after it for the first), so the rest keep their bytes. The only
 * element goes with everything between the brackets.
 */
function removeElement(text: string, container: JsonNode, ranges: [number, number][], index: number): string {
  const [start, end] = ranges[index] as [number, number];
  if (ranges.length === 1) return splice(text, container.start + 1, container.end - 1, "");
  if (index > 0) return splice(text, (ranges[index - 1] as [number, number])[1], end, "");
  return splice(text, start, (ranges[1] as [number, number])[0], "");
}

export function removeMember(text: string, node: Extract<JsonNode, { kind: "object" }>, index: number): string {
  return removeElement(
    text,
    node,
    node.members.map((m) => [m.start, m.value.end]),
    index,
  );
}

export function removeItem(text: string, node: Extract<JsonNode, { kind: "array" }>, index: number): string {
  return removeElement(
    text,
    node,
    node.items.map((i) => [i.start, i.end]),
    index,
  );
}

/** Removes an event list that a hook removal emptied (and `hooks` when it was all that was left), or null: one step of an uninstall. */
export function removeEmptiedEvent(text: string, root: Extract<JsonNode, { kind: "object" }>, hooksAt: number, emptied: Set<string>): string | null {
  const hooks = root.members[hooksAt]?.value as Extract<JsonNode, { kind: "object" }>;
  const index = hooks.members.findIndex((m) => emptied.has(m.key) && m.value.kind === "array" && m.value.items.length === 0);
  if (index < 0) return null;
  return hooks.members.length === 1 ? removeMember(text, root, hooksAt) : removeMember(text, hooks, index);
}
