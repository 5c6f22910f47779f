// Colour on a terminal, through node's util.styleText (no dependency). Decided per stream: off with
// --no-color or NO_COLOR (any non-empty value, no-color.org); on with FORCE_COLOR (any value but
// "0" or "false"); else on exactly when the stream is a TTY and TERM is not "dumb".
import { styleText } from "node:util";

export type Style = "red" | "green" | "yellow" | "blue" | "magenta" | "cyan" | "gray" | "bold" | "dim";

// Node ≥ 22.13 checks process.stdout itself unless told not to; the decision here is per stream.
const style = styleText as (format: Style[], text: string, options?: { validateStream: boolean }) => string;
const styleFor = (styles: Style[], text: string): string => style(styles, text, { validateStream: false });

let noColorFlag = false;

/** `--no-color` on the command line. */
export function setNoColor(value: boolean): void {
  noColorFlag = value;
}

export function colorEnabled(stream: { readonly isTTY?: boolean }): boolean {
  if (noColorFlag) return false;
  if (process.env.NO_COLOR) return false;
  const force = process.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return !!stream.isTTY && process.env.TERM !== "dumb";
}

/** A painter for one stream: text in the given styles when that stream shows colour, else as it is. */
export function painter(stream: { readonly isTTY?: boolean }): (text: string, ...styles: Style[]) => string {
  if (!colorEnabled(stream)) return (text) => text;
  return (text, ...styles) => (text === "" || styles.length === 0 ? text : styleFor(styles, text));
}
