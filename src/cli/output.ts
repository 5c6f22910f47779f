// The one place that prints results and errors and sets exit codes (SPEC §2): --json prints
// exactly one object on stdout; otherwise a short human rendering. 0 done, 2 invalid input,
// 3 refused or blocked, 1 anything else. No stack traces. Results go to fd 1 itself (fd-out.ts).
import { errorResult, exitCodeForError } from "../core/shared/errors.js";
import { configureDisplay } from "./terminal.js";
import { painter } from "./color.js";
import { writeOut } from "./start/fd-out.js";

export interface GlobalOptions {
  repo?: string;
  home?: string;
  registry?: string;
  json?: boolean;
  /** `--wide`: tables show every cell in full whatever the terminal's width. */
  wide?: boolean;
  /** false with `--no-color`. */
  color?: boolean;
}

export type Renderer<R> = (result: R) => string;

interface ResultLike {
  ok: boolean;
  action?: string;
  error?: { code: string; message: string };
}

/** Exit code of a result: ok → 0; an error object → 1 (2 for usage codes); a refusal → 3. */
export function exitCodeFor(result: ResultLike): 0 | 1 | 2 | 3 {
  if (result.ok) return 0;
  if (result.error) return USAGE_CODES.has(result.error.code) ? 2 : 1;
  return 3;
}

const USAGE_CODES = new Set(["invalid_argument", "invalid_branch", "invalid_config", "invalid_input", "invalid_manifest", "usage"]);

export function printResult<R extends ResultLike>(result: R, globals: GlobalOptions, render: Renderer<R>, exitCode = exitCodeFor(result)): void {
  if (globals.json) writeOut(JSON.stringify(result) + "\n");
  else {
    configureDisplay(globals);
    const text = render(result);
    if (text) writeOut(text.endsWith("\n") ? text : text + "\n");
  }
  process.exitCode = exitCode;
}

export function printError(error: unknown, globals: GlobalOptions): void {
  const result = errorResult(error);
  if (globals.json) writeOut(JSON.stringify(result) + "\n");
  else {
    configureDisplay(globals);
    process.stderr.write(`${painter(process.stderr)("orchard:", "red", "bold")} ${result.error.message}\n`);
  }
  if (process.env.ORCHARD_DEBUG === "1" && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exitCode = exitCodeForError(error);
}

/** A usage error raised by the argument parser itself (unknown option, missing argument). */
export function printUsageError(message: string, globals: GlobalOptions, code = "usage"): void {
  if (globals.json) writeOut(JSON.stringify({ ok: false, error: { code, message } }) + "\n");
  else process.stderr.write(`orchard: ${message}\n`);
  process.exitCode = 2;
}
