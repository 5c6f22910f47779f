// An error from the library names its input the CLI's way (`--ttl`, `--pid`): the library's
// messages are written for the command line. A tool's caller knows the tool's arguments (`ttl`,
// `pid`, `dryRun`), so a tool's error names those instead (issue 22 item 7). The rewrite is driven by
// the tool's own schema: only a flag that is one of its arguments is renamed.
import type { Tool } from "./tools.js";

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** `message` with each `--<flag>` of one of `tool`'s arguments written as the argument's name. */
export function withArgumentNames(message: string, tool: Tool): string {
  let out = message;
  for (const key of Object.keys(tool.input.shape)) {
    out = out.replace(new RegExp(`--no-${kebab(key)}(?![\\w-])`, "g"), `${key}: false`);
    out = out.replace(new RegExp(`--${kebab(key)}(?![\\w-])`, "g"), key);
  }
  return out;
}
