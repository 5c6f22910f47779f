// A reason code added without its detail type does not compile (issue 23 item 4): the TypeScript
// compiler checks src/core/shared/reasons/reasons.ts as it is (no error), then with one code more in
// REASON_TEXT and none in ReasonDetails (an error at REASON_DETAILS_COMPLETE), then with a detail
// type whose code is gone (the same error).
import { describe, expect, it } from "vitest";
import ts from "typescript";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const REASONS = join(ROOT, "src/core/shared/reasons/reasons.ts");
const DETAILS = join(ROOT, "src/core/shared/reasons/reason-details.ts");

let previous: ts.Program | undefined; // the files no edit touches are checked once

/** The compiler's errors in reasons.ts, with `edit` applied to the text of one file. */
function errorsWith(edit: { file: string; change: (text: string) => string } | null): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error("tsconfig.json could not be read");
  const host = ts.createCompilerHost(config.options);
  const read = host.readFile.bind(host);
  host.readFile = (file) => {
    const text = read(file);
    return edit && text !== undefined && resolve(file) === edit.file ? edit.change(text) : text;
  };
  const program = ts.createProgram({ rootNames: [REASONS], options: { ...config.options, noEmit: true }, host, ...(previous ? { oldProgram: previous } : {}) });
  previous = program;
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(REASONS))
    .map((d) => `${d.start === undefined ? "" : d.file?.getLineAndCharacterOfPosition(d.start).line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

/** The one error a missing entry makes: REASON_DETAILS_COMPLETE's `true` is not its type (`false`). */
const completeLine = (errors: string[]): string[] => errors.filter((e) => /Type 'true' is not assignable to type 'false'/.test(e));

describe("ReasonDetails has one entry per reason code", () => {
  it("compiles as it is, and not with a code missing its detail type or a detail type missing its code", () => {
    expect(errorsWith(null)).toEqual([]);
    const marker = "} as const;";
    const added = errorsWith({ file: REASONS, change: (t) => t.replace(marker, `  brand_new_code: "a code without a detail type",\n${marker}`) });
    expect(completeLine(added), added.join("\n")).toHaveLength(1);
    const removed = errorsWith({ file: DETAILS, change: (t) => t.replace(/^  host_rows_present: .*$/m, "") });
    expect(completeLine(removed), removed.join("\n")).toHaveLength(1);
  });
});
