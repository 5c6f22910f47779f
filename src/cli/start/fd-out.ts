// Writes to fd 1 without process.stdout, whose stream modules (a pipe's socket, a file's sync
// stream, a terminal's tty) Node would load and compile on its first use: ≈ a tenth of a node
// start. A reader that went away (`orchard … | head -1`) drops the rest, as main.ts's handler does
// for process.stdout; a non-blocking pipe that is full gets the rest through process.stdout, which
// waits for it. Used by the quick and lean command lines (quick.ts, output.ts).
import { writeSync } from "node:fs";
import { isatty } from "node:tty";

export function writeOut(text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EPIPE") return;
    if (code !== "EAGAIN") throw error;
    process.stdout
      .on("error", (e: NodeJS.ErrnoException) => {
        if (e.code !== "EPIPE") throw e;
      })
      .write(bytes.subarray(done));
  }
}

/** Whether fd 1 is a terminal, without process.stdout (a terminal then gets it: its width). */
export const stdoutIsTty = (): boolean => isatty(1);
