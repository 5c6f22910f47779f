// One line of progress on stderr while a long command works, on a terminal only: never in a pipe,
// a file or with --json. The line is cut to the terminal's width (read at each draw, so a resize is
// followed) and names worktrees by handle, never by path, so it never wraps: `\r` and ESC[2K then
// erase all of it, and the result is printed on a clean line. Nothing is drawn for the first
// 200 ms (a quick command shows no flicker), and at most every 50 ms after that.
import type { ProgressEvent } from "../core/shared/progress.js";
import { painter } from "./color.js";
import { escapeControl } from "./escape.js";
import { truncateEnd } from "./width.js";

/** ORCHARD_PROGRESS_DELAY_MS (tests: 0, so a fast machine still draws) overrides the 200 ms. */
const DELAY_MS = Number(process.env.ORCHARD_PROGRESS_DELAY_MS ?? "200") || 0;
const EVERY_MS = 50;
const CLEAR = "\r\x1b[2K";

/** What a command says for good (not erased) when the library announces what it will do, or null. */
export type Announce = (command: string, event: ProgressEvent) => string | null;

export class ProgressLine {
  private readonly started = Date.now();
  private shown = false;
  private lastDraw = 0;
  private pending: string;
  private timer: NodeJS.Timeout | null = null;
  private readonly onExit = (): void => this.clear();

  private constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly command: string,
    private readonly announce: Announce | undefined,
  ) {
    this.pending = `${command} …`;
    this.timer = setTimeout(() => this.flush(), DELAY_MS).unref();
    process.on("exit", this.onExit);
  }

  /** A progress line for `command`, or null when stderr is not a terminal or the output is JSON. */
  static start(
    command: string,
    options: { json?: boolean | undefined },
    stream: NodeJS.WriteStream = process.stderr,
    announce?: Announce,
  ): ProgressLine | null {
    if (options.json || !stream.isTTY) return null;
    return new ProgressLine(stream, command, announce);
  }

  /** The listener the library reports to (core/shared/progress.ts). */
  readonly report = (event: ProgressEvent): void => {
    const said = event.intent ? this.announce?.(this.command, event) : null;
    if (said) {
      this.clear(); // a line for good, above the progress, which goes on under it
      // cut to the terminal's width like the progress line (the result's first line gives the whole count)
      this.stream.write(`${truncateEnd(escapeControl(said), (this.stream.columns > 1 ? this.stream.columns : 80) - 1)}\n`);
    }
    this.update(`${this.command}: ${event.phase} ${event.done}/${event.total}${event.label ? `  ${event.label}` : ""}`);
  };

  update(text: string): void {
    this.pending = text;
    const now = Date.now();
    if (now - this.started < DELAY_MS || (this.shown && now - this.lastDraw < EVERY_MS)) {
      this.timer ??= setTimeout(() => this.flush(), Math.max(DELAY_MS - (now - this.started), EVERY_MS)).unref();
      return;
    }
    this.flush();
  }

  /** Erases the line (before the result is printed, or anything else is written to the terminal). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.shown) this.stream.write(CLEAR);
    this.shown = false;
  }

  /** Clears the line for good. */
  stop(): void {
    this.clear();
    this.pending = "";
    process.off("exit", this.onExit);
  }

  private flush(): void {
    this.timer = null;
    if (!this.pending) return;
    const columns = this.stream.columns > 1 ? this.stream.columns : 80;
    const text = truncateEnd(escapeControl(this.pending), columns - 1); // the last column would wrap on some terminals
    this.stream.write(CLEAR + painter(this.stream)(text, "dim"));
    this.shown = true;
    this.lastDraw = Date.now();
  }
}
