// `git config -z [--show-scope] --show-origin --get-regexp` output (programs/read.ts, programs-vet.ts).
export interface ConfigRecord {
  scope: string;
  origin: string;
  key: string;
  value: string;
}

/** `git config -z [--show-scope] --show-origin --get-regexp`: records `[scope\0]origin\0key\nvalue\0`. */
export function parseConfigRecords(stdout: string, withScope: boolean): ConfigRecord[] {
  const tokens = stdout.split("\0");
  const out: ConfigRecord[] = [];
  for (let i = 0; i + (withScope ? 2 : 1) < tokens.length;) {
    const scope = withScope ? tokens[i++]! : "repo";
    const origin = tokens[i++]!;
    const record = tokens[i++]!;
    const nl = record.indexOf("\n");
    out.push({ scope, origin, key: nl < 0 ? record : record.slice(0, nl), value: nl < 0 ? "true" : record.slice(nl + 1) });
  }
  return out;
}
