// The in-place edits of a harness's hook file: install is idempotent and keeps the file's style,
// uninstall gives back the text byte for byte, whatever the user's own hooks around Orchard's.
import { describe, expect, it } from "vitest";
import { installIntoText, uninstallFromText, type InstallText } from "./hooks-text.js";

const hooks = [
  { event: "SessionStart", args: "codex session-start" },
  { event: "SessionEnd", args: "codex session-end" },
];
const commands = new Map([
  ["SessionStart", "orchard codex session-start"],
  ["SessionEnd", "orchard codex session-end"],
]);
const grouped: InstallText = { hooks, commands, shape: "grouped" };
const flat: InstallText = { hooks, commands, shape: "flat" };

describe("installIntoText / uninstallFromText", () => {
  const files: [string, string, InstallText][] = [
    ["compact", `{"model":"x"}`, grouped],
    ["4-space CRLF", `{\r\n    "model": "x",\r\n    "hooks": {\r\n        "Stop": []\r\n    }\r\n}\r\n`, grouped],
    [
      "the user's hook in Orchard's event",
      `${JSON.stringify({ hooks: { SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "mine" }] }] } }, null, 2)}\n`,
      grouped,
    ],
    ["Copilot's flat entries", `${JSON.stringify({ hooks: { SessionEnd: [{ type: "command", bash: "./bye.sh" }] } }, null, 2)}\n`, flat],
  ];
  for (const [name, text, spec] of files)
    it(`${name}: installed once, kept in style, uninstalled byte for byte`, () => {
      const installed = installIntoText(text, spec);
      expect(installIntoText(installed, spec)).toBe(installed);
      expect(installed.includes("\n")).toBe(text.includes("\n"));
      if (text.includes("\r\n")) expect(installed.replace(/\r\n/g, "")).not.toContain("\n");
      const parsed = JSON.parse(installed) as { hooks: Record<string, unknown[]> };
      expect(JSON.stringify(parsed.hooks.SessionStart)).toContain("orchard codex session-start");
      expect(uninstallFromText(installed, spec)).toBe(text);
    });

  it("an older command of Orchard's is replaced in place; a duplicate goes; another tool's command that only mentions it stays", () => {
    const text = `${JSON.stringify(
      {
        hooks: {
          SessionStart: [
            { hooks: [{ type: "command", command: "/old/orchard codex session-start" }] },
            { hooks: [{ type: "command", command: "orchard codex session-start" }] },
            { hooks: [{ type: "command", command: "echo codex session-started" }] },
          ],
        },
      },
      null,
      2,
    )}\n`;
    const installed = JSON.parse(installIntoText(text, grouped)) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(installed.hooks.SessionStart?.map((g) => g.hooks[0]?.command)).toEqual(["orchard codex session-start", "echo codex session-started"]);
  });

  it("a hooks value of the wrong kind is an error, not an edit", () => {
    expect(() => installIntoText(`{"hooks": []}`, grouped)).toThrow(/not an object/);
    expect(() => installIntoText(`{"hooks": {"SessionStart": {}}}`, grouped)).toThrow(/not a list/);
  });
});
