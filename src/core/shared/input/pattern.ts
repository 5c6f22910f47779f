// Regular expressions from a repository's config (`wave.branchPattern`) run under a time bound:
// JavaScript's engine backtracks, so a pattern like `^(a+)+$` takes exponential time on a
// hostile branch name. Each match runs in a separate V8 context with a timeout, which V8
// enforces inside the regex engine too; running over it is invalid configuration (exit 2).
import { createContext, Script } from "node:vm";
import { usageError } from "../errors.js";

export const PATTERN_TIMEOUT_MS = 500;

const sandbox = createContext({ re: /$^/, text: "" });
const test = new Script("re.test(text)");

/** `pattern.test(text)` within `timeoutMs`; throws invalid_config (naming `setting`) when it runs over. */
export function testBounded(pattern: RegExp, text: string, setting: string, timeoutMs = PATTERN_TIMEOUT_MS): boolean {
  sandbox.re = pattern;
  sandbox.text = text;
  try {
    return test.runInContext(sandbox, { timeout: timeoutMs }) === true;
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
    throw usageError(
      "invalid_config",
      `${setting} took over ${timeoutMs} ms on ${JSON.stringify(text)}: a pattern that backtracks catastrophically; simplify it`,
    );
  } finally {
    sandbox.re = /$^/;
    sandbox.text = "";
  }
}
