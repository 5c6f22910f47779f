// What the human output is printed on: its width and whether it shows colour. A terminal's width
// is its own (stdout's columns); a pipe or a file gets every column in full, as does `--wide`.
import { painter, setNoColor, type Style } from "./color.js";
import { stdoutIsTty } from "./start/fd-out.js";

const NOT_A_TTY = { isTTY: false } as const;

export interface Display {
  /** Columns a line may take (Infinity: no limit). */
  width: number;
  paint: (text: string, ...styles: Style[]) => string;
}

let wide = false;

/** The global flags that shape human output (`--wide`, `--no-color`). */
export function configureDisplay(flags: { wide?: boolean; color?: boolean }): void {
  wide = flags.wide ?? false;
  setNoColor(flags.color === false);
}

export function widthOf(stream: NodeJS.WriteStream): number {
  return stream.isTTY && stream.columns > 0 ? stream.columns : Infinity;
}

/** The display of stdout, where results are printed. */
export function stdoutDisplay(): Display {
  // not a terminal: no process.stdout (its stream modules) for a width or colour it does not have
  const stream = stdoutIsTty() ? process.stdout : NOT_A_TTY;
  return { width: wide || stream === NOT_A_TTY ? Infinity : widthOf(process.stdout), paint: painter(stream) };
}
