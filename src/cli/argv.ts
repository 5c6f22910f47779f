// Arguments that are not valid UTF-8 (SPEC v3 §4.2). Node decodes argv as UTF-8 and puts U+FFFD
// where a byte sequence is invalid, so `add $'x\xff'` would name another branch than the one
// given. On Linux the bytes as given are read back from /proc/self/cmdline and decoded strictly;
// elsewhere a U+FFFD in an argument is taken as that replacement (a U+FFFD typed on purpose is
// refused too: the two cannot be told apart there).
import { readFileSync } from "node:fs";

/** The first argument (as node lists it in process.argv) that is not valid UTF-8, or null. */
export function invalidUtf8Argument(argv: readonly string[]): string | null {
  const raw = rawArguments();
  if (raw) {
    const strict = new TextDecoder("utf-8", { fatal: true });
    // /proc lists node's own options too; the command's arguments are its last argv.length - 1
    const mine = raw.slice(Math.max(0, raw.length - (argv.length - 1)));
    for (const [i, bytes] of mine.entries()) {
      try {
        strict.decode(bytes);
      } catch {
        return argv[argv.length - mine.length + i] ?? "";
      }
    }
    return null;
  }
  return argv.find((a) => a.includes("\uFFFD")) ?? null;
}

function rawArguments(): Buffer[] | null {
  if (process.platform !== "linux") return null;
  let text: Buffer;
  try {
    text = readFileSync("/proc/self/cmdline");
  } catch {
    return null; // no /proc: the replacement character is the evidence left
  }
  const parts: Buffer[] = [];
  for (let at = 0; at < text.length;) {
    const end = text.indexOf(0, at);
    parts.push(text.subarray(at, end < 0 ? text.length : end));
    at = end < 0 ? text.length : end + 1;
  }
  return parts;
}
