// Tables that fit the terminal: cells measured in display columns (width.ts), control characters
// shown not obeyed (escape.ts), a column nobody filled dropped, and when a row is wider than the
// terminal the shrinkable columns give way in their order (a path loses its middle, other text its
// end) down to their minimum; `--wide` (or a pipe) shows every cell whole.
import { escapeControl } from "./escape.js";
import { displayWidth, padEnd, truncateEnd, truncateMiddle } from "./width.js";
import { stdoutDisplay, type Display } from "./terminal.js";
import type { Style } from "./color.js";

export interface Column {
  header: string;
  /** How the column gives way when the row is too wide; absent: it never does. */
  shrink?: "middle" | "end";
  /** The narrowest it becomes (default 8 columns). */
  min?: number;
  /** Lower gives way first (default: the column's index from the right). */
  priority?: number;
  /** Dropped (lowest priority first) when the row cannot fit even with every column at its minimum. */
  optional?: boolean;
  /**
   * The largest share of the terminal's width the column takes (0–1; never below its minimum), so
   * one long cell (an 81-character branch) does not push the columns after it off the screen.
   */
  maxShare?: number;
  /** Styles of a cell, from its text. */
  style?: (text: string, row: number) => Style[];
}

export type ColumnSpec = string | Column;

const GAP = "  ";
/** The narrowest a shrinkable column becomes when the row fits no other way. */
const FLOOR = 6;

/** Columns whose header names a path shrink in the middle by default; everything else keeps its width. */
function columnOf(spec: ColumnSpec): Column {
  if (typeof spec !== "string") return spec;
  const name = spec.trim();
  if (name === "PATH" || name === "WORKTREE" || name === "REF") return { header: spec, shrink: "middle", min: 16 };
  if (name === "WHY" || name === "REASONS" || name === "REASON") return { header: spec, shrink: "end", min: 16, priority: -1 };
  return { header: spec };
}

/**
 * Widths that fit `limit` (0: the column is hidden). The columns give way one by one, least
 * important first (lowest priority): a shrinkable one down to its minimum, and an optional one is
 * hidden instead when even at its minimum the row would not fit; then, if need be, below the minimum.
 */
export function fitWidths(columns: readonly Column[], natural: readonly number[], limit: number): number[] {
  const min = (i: number): number => (columns[i]?.shrink ? Math.min(natural[i] as number, columns[i]?.min ?? 8) : (natural[i] as number));
  const widths = natural.map((w, i) => {
    const share = columns[i]?.maxShare;
    return share !== undefined && columns[i]?.shrink && Number.isFinite(limit) ? Math.min(w, Math.max(min(i), Math.floor(limit * share))) : w;
  });
  const total = (): number => {
    const shown = widths.flatMap((w, i) => (w > 0 || natural[i] === 0 ? [w] : []));
    return shown.reduce((a, w) => a + w, 0) + GAP.length * (shown.length - 1);
  };
  const byPriority = columns.map((c, i) => ({ c, i })).sort((a, b) => (a.c.priority ?? -a.i) - (b.c.priority ?? -b.i));
  for (const { c, i } of byPriority) {
    const excess = total() - limit;
    if (excess <= 0) break;
    if (c.optional && excess > (widths[i] as number) - min(i)) widths[i] = 0;
    else if (c.shrink) widths[i] = Math.max(min(i), (widths[i] as number) - excess);
  }
  // still too wide with every column at its minimum: the shrinkable ones go below it (to FLOOR) rather than wrap
  for (const { c, i } of byPriority) {
    const excess = total() - limit;
    if (excess <= 0) break;
    if (c.shrink && (widths[i] as number) > FLOOR) widths[i] = Math.max(FLOOR, (widths[i] as number) - excess);
  }
  return widths;
}

export interface TableOptions {
  /** A line shown under each row (its next step, `↳ …`), or null; cut to the width, never wrapped. */
  under?: readonly (string | null)[];
  display?: Display;
}

export function renderTable(specs: readonly ColumnSpec[], rows: readonly (readonly string[])[], options: TableOptions | Display = {}): string {
  const { under = [], display = stdoutDisplay() } = "paint" in options ? { display: options } : options;
  const all = specs.map(columnOf);
  const cells = rows.map((r) => all.map((_, i) => escapeControl(r[i] ?? "")));
  const keep = all.map((_, i) => cells.length === 0 || cells.some((r) => r[i] !== "")); // a column nobody filled is dropped
  const columns = all.filter((_, i) => keep[i]);
  const body = cells.map((r) => r.filter((_, i) => keep[i]));
  const natural = columns.map((c, i) => Math.max(displayWidth(c.header), ...body.map((r) => displayWidth(r[i] as string))));
  const fitted = fitWidths(columns, natural, display.width);
  const kept = fitted.map((w, i) => w > 0 || natural[i] === 0);
  const widths = fitted.filter((_, i) => kept[i]);
  const shownColumns = columns.filter((_, i) => kept[i]);
  const shownBody = body.map((r) => r.filter((_, i) => kept[i]));
  const hidden = columns.filter((_, i) => !kept[i]).map((c) => c.header.trim());
  const said = `(${hidden.join(", ")} hidden to fit ${display.width} columns; --wide shows every column)`;
  // the footer fits too: without its width when that is too long
  const note = displayWidth(said) <= display.width ? said : `(${hidden.join(", ")} hidden; --wide shows every column)`;
  const footer = hidden.length ? [display.paint(note, "dim")] : [];
  return [lines(shownColumns, shownBody, widths, display, under), ...footer].join("\n");
}

function lines(columns: readonly Column[], body: readonly string[][], widths: readonly number[], display: Display, under: readonly (string | null)[]): string {
  const cut = (text: string, i: number): string => {
    const w = widths[i] as number;
    return columns[i]?.shrink === "middle" ? truncateMiddle(text, w) : truncateEnd(text, w);
  };
  const line = (texts: readonly string[], styled: (text: string, i: number) => string): string =>
    texts
      .map((t, i) => {
        const text = cut(t, i);
        const shown = styled(text, i);
        return i === texts.length - 1 ? shown : shown + " ".repeat(Math.max(0, (widths[i] as number) - displayWidth(text)));
      })
      .join(GAP)
      .trimEnd();
  const header = line(
    columns.map((c) => c.header),
    (t) => display.paint(t, "bold"),
  );
  const below = (row: number): string[] => {
    const text = under[row];
    return text ? [display.paint(truncateEnd(`  ↳ ${escapeControl(text)}`, display.width), "cyan")] : [];
  };
  return [header, ...body.flatMap((r, row) => [line(r, (t, i) => display.paint(t, ...(columns[i]?.style?.(r[i] as string, row) ?? []))), ...below(row)])].join(
    "\n",
  );
}

export { padEnd };
