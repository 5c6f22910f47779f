// The lean command line (lean.ts) parses its verbs as the whole command line declares them: the
// same flags, the same values taken, the same defaults. A flag added to a verb in program.ts's
// declarations and not here fails this test, so the two cannot drift apart.
import { describe, expect, it } from "vitest";
import { buildProgram } from "../program.js";
import { leanDeclarations, parseLean } from "./lean.js";

describe("the lean command line", () => {
  const program = buildProgram("0.0.0");
  for (const [verb, lean] of Object.entries(leanDeclarations())) {
    it(`declares ${verb} as program.ts does`, () => {
      const command = program.commands.find((c) => c.name() === verb);
      expect(command, verb).toBeDefined();
      const declared = command!.options.map((o) => (o.required || o.optional ? `${o.long} <value>` : (o.long as string))).sort();
      // the flags it declines (list's --full, --all-repos) are the whole command line's to take
      expect([...lean.flags, ...lean.declined].sort()).toEqual(declared);
      expect(lean.flags.filter((f) => lean.declined.includes(f))).toEqual([]);
      const defaults = Object.fromEntries(command!.options.filter((o) => o.defaultValue !== undefined).map((o) => [o.attributeName(), o.defaultValue]));
      // a negated switch's default (--no-bootstrap: bootstrap true) is commander's implicit one
      for (const o of command!.options) if (o.negate) defaults[o.attributeName()] = true;
      expect(lean.defaults).toEqual(defaults);
      const argument = command!.registeredArguments[0];
      expect(lean.argument).toBe(argument === undefined ? "none" : argument.required ? "required" : "optional");
      expect(command!.registeredArguments.length).toBeLessThanOrEqual(1);
    });
  }

  it("reads flags where commander takes them, and leaves everything else to it", () => {
    expect(parseLean(["--home", "/h", "remove", "x@y", "--json", "--dry-run"])).toMatchObject({
      globals: { home: "/h", json: true },
      argument: "x@y",
      opts: { dryRun: true },
    });
    expect(parseLean(["add", "feat", "--owner=me", "--no-bootstrap", "--ttl", "30m"])?.opts).toEqual({
      policy: "isolated",
      bootstrap: false,
      owner: "me",
      ttl: "30m",
    });
    expect(parseLean(["add"])?.argument).toBeUndefined();
    expect(parseLean(["--repo", "/r", "list", "--json", "--wide", "--no-color"])).toMatchObject({
      globals: { repo: "/r", json: true, wide: true, color: false },
      argument: undefined,
      opts: {},
    });
    expect(parseLean(["release", "h", "--outcome", "failed", "--force", "--no-color"])).toMatchObject({
      globals: { color: false },
      opts: { outcome: "failed", force: true },
    });
    for (const args of [
      ["remove"], // its argument is required: commander's error
      ["remove", "a", "b"],
      ["remove", "--", "a"],
      ["remove", "a", "--help"],
      ["--dry-run", "remove", "a"], // remove's flag before the verb
      ["remove", "a", "--owner", "me"], // another verb's flag
      ["add", "feat", "--owner", "-x"], // a value that reads as a flag
      ["add", "feat", "--owner"],
      ["add", "feat", "--owner="],
      ["remove", "a", "--home"],
      ["heartbeat", "a", "--force"],
      ["status"],
      ["status", "a", "--json", "--full"], // list's flag
      ["list", "--full"], // list's flags it leaves to commander
      ["list", "--all-repos"],
      ["list", "extra"], // list takes no argument
      ["list", "--json", "--", "x"],
      ["list", "--help"],
      [],
    ])
      expect(parseLean(args), args.join(" ")).toBeNull();
  });
});
