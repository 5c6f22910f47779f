// The real CLI on a real pseudo-terminal: util-linux `script` gives the command a pty of a set
// width (`stty cols`), and `screen` replays what it wrote the way a terminal does (wrapping at the
// last column, `\r`, ESC[2K and ESC[K erasing), so a test sees the screen a person would see —
// including the debris of a progress line that wrapped.
import { spawnSync } from "node:child_process";
import { graphemes, graphemeWidth } from "../../src/cli/width.js";
import { hermeticEnv } from "./env.js";
import { CLI } from "./scenario.js";
import { PROCESS_TIMEOUT_MS } from "./time.js";

const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

export interface PtyResult {
  code: number;
  /** Everything written to the terminal, escape sequences included. */
  raw: string;
  /** The terminal's lines once the command ended (trailing blank lines dropped). */
  screen: string[];
}

export interface PtyOptions {
  cols: number;
  cwd: string;
  /** Environment on top of the hermetic one; `undefined` removes a variable (NO_COLOR is set by default). */
  env?: Record<string, string | undefined>;
  /** A shell redirection for stdout, e.g. `> out.txt` (stderr stays on the terminal). */
  stdoutTo?: string;
}

/** Runs `orchard <args>` on a pty `cols` wide. */
export function orchardInPty(args: readonly string[], options: PtyOptions): PtyResult {
  const env = hermeticEnv();
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const command = [process.execPath, CLI, ...args].map(quote).join(" ");
  const shell = `stty cols ${options.cols} rows 60 && exec ${command}${options.stdoutTo ? ` ${options.stdoutTo}` : ""}`;
  const r = spawnSync("script", ["-qfec", shell, "/dev/null"], { cwd: options.cwd, env, encoding: "utf8", input: "", timeout: PROCESS_TIMEOUT_MS });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, raw: r.stdout, screen: screen(r.stdout, options.cols) };
}

/** The lines a terminal `cols` wide shows after `raw` (no scrolling limit). */
export function screen(raw: string, cols: number): string[] {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  let pendingWrap = false;
  const line = (): string[] => (rows[row] ??= []);
  for (let i = 0; i < raw.length;) {
    const c = raw[i] as string;
    if (c === "\x1b") {
      const m = /^\x1b\[([0-9;?]*)([A-Za-z])/.exec(raw.slice(i));
      if (!m) throw new Error(`screen: an escape sequence it does not know at ${JSON.stringify(raw.slice(i, i + 12))}`);
      const [all, param, kind] = m as unknown as [string, string, string];
      if (kind === "K") {
        if (param === "2") rows[row] = [];
        else line().length = Math.min(line().length, col);
        pendingWrap = false;
      } else if (kind !== "m") throw new Error(`screen: ESC[${param}${kind} is not handled`);
      i += all.length;
      continue;
    }
    if (c === "\r") {
      col = 0;
      pendingWrap = false;
      i++;
      continue;
    }
    if (c === "\n") {
      row++;
      line();
      pendingWrap = false;
      i++;
      continue;
    }
    const [g] = graphemes(raw.slice(i, i + 16));
    const grapheme = g as string;
    const w = graphemeWidth(grapheme);
    if (pendingWrap || col + w > cols) {
      row++;
      col = 0;
      line();
      pendingWrap = false;
    }
    const cells = line();
    while (cells.length < col) cells.push(" ");
    cells[col] = grapheme;
    for (let k = 1; k < w; k++) cells[col + k] = "";
    col += w;
    if (col >= cols) pendingWrap = true;
    i += grapheme.length;
  }
  const lines = rows.map((r) => (r ?? []).join("").trimEnd());
  while (lines.length && lines.at(-1) === "") lines.pop();
  return lines;
}
