/** Thrown when git output does not match the machine format a parser expects. */
export class ParseError extends Error {
  override name = "ParseError";

  /** Names the git format being parsed, e.g. "worktree list --porcelain -z". */
  readonly format: string;

  constructor(format: string, message: string) {
    super(`${format}: ${message}`);
    this.format = format;
  }
}

/** Quote a fragment of input for an error message, truncated to keep messages short. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
