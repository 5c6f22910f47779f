// install/uninstall as text edits (SPEC v3 §3.14): Orchard's lines only, the file's own formatting
// kept, the user's hooks and keys byte for byte, every value in a hook command shell-quoted.
import { describe, expect, it } from "vitest";
import { hookCommands, installIntoText, lineDiff, uninstallFromText } from "./settings.js";

const commands = hookCommands("orchard");
const SCRIPT = `"\${CLAUDE_PROJECT_DIR:-.}/.claude/orchard-hook.sh"`;

const USER_HOOK = { matcher: "Bash", hooks: [{ type: "command", command: "echo hi" }] };

/** The files a user may have: compact, 2-space, 4-space, tabs with CRLF, and odd spacing. */
const FILES: Record<string, string> = {
  compact: JSON.stringify({ model: "x", hooks: { PreToolUse: [USER_HOOK] }, n: 1.5 }),
  "two spaces": `${JSON.stringify({ model: "x", hooks: { PreToolUse: [USER_HOOK] }, env: { A: "1" } }, null, 2)}\n`,
  "four spaces": `${JSON.stringify({ hooks: { PreToolUse: [USER_HOOK], SessionStart: [{ hooks: [{ type: "command", command: "mine" }] }] } }, null, 4)}\n`,
  "tabs, CRLF": `${JSON.stringify({ model: "x", permissions: { allow: [] } }, null, "\t").replaceAll("\n", "\r\n")}\r\n`,
  "hand-written": `{ "model" : "x",  "hooks": {"PreToolUse": [ {"matcher":"Bash","hooks":[{"type":"command","command":"echo \\u00e9"}]} ] },\n  "x": [1,2,3] }\n`,
  empty: "",
};

describe("install then uninstall", () => {
  for (const [name, text] of Object.entries(FILES)) {
    it(`${name}: install adds only Orchard's entries; uninstall gives back the file byte for byte`, () => {
      const installed = installIntoText(text, commands);
      const parsed = JSON.parse(installed);
      expect(parsed.hooks.WorktreeCreate).toEqual([{ hooks: [{ type: "command", command: "orchard claude-code worktree-create" }] }]);
      expect(parsed.hooks.WorktreeRemove).toEqual([{ hooks: [{ type: "command", command: "orchard claude-code worktree-remove" }] }]);
      expect(parsed.hooks.SessionStart.at(-1)).toEqual({ matcher: "startup", hooks: [{ type: "command", command: "orchard claude-code session-start" }] });
      if (text !== "") {
        // every key of the user's is still there with its value
        const before = JSON.parse(text);
        for (const key of Object.keys(before)) if (key !== "hooks") expect(parsed[key]).toEqual(before[key]);
        for (const [event, list] of Object.entries(before.hooks ?? {})) expect(parsed.hooks[event].slice(0, (list as unknown[]).length)).toEqual(list);
      }
      // the diff shows Orchard's lines and nothing removed of the user's
      const diff = lineDiff(text.replace(/\n$/, ""), installed.replace(/\n$/, ""));
      const removed = diff.split("\n").filter((l) => l.startsWith("- "));
      if (text.includes("\n  ") && !text.startsWith("{ ")) expect(removed).toEqual([]); // the indented files (the one-line ones change their line)
      expect(installIntoText(installed, commands)).toBe(installed); // idempotent
      expect(uninstallFromText(installed)).toBe(text === "" ? "{}\n" : text);
    });
  }

  it("a compact file stays one line; an indented one keeps its indent unit and line ends", () => {
    expect(installIntoText(FILES.compact as string, commands)).not.toContain("\n");
    const four = installIntoText(FILES["four spaces"] as string, commands);
    expect(four).toContain('\n        "WorktreeCreate": [\n            {\n                "hooks": [');
    const tabs = installIntoText(FILES["tabs, CRLF"] as string, commands);
    expect(tabs).toContain('\r\n\t"hooks": {\r\n\t\t"WorktreeCreate": [');
    expect(tabs.replaceAll("\r\n", "")).not.toContain("\n");
  });

  it("the printed diff of a 2-space file adds Orchard's lines and removes none", () => {
    const text = FILES["two spaces"] as string;
    const diff = lineDiff(text.replace(/\n$/, ""), installIntoText(text, commands).replace(/\n$/, ""));
    const changed = diff.split("\n").filter((l) => !l.startsWith("  "));
    expect(changed.filter((l) => l.startsWith("- "))).toEqual([]);
    expect(changed).toHaveLength(41); // four entries of 10, 10, 11 and 10 lines
    expect(
      changed.filter((l) => l.startsWith("+ ")).every((l) => /orchard|WorktreeCreate|WorktreeRemove|SessionStart|startup|hooks|type|[[\]{},]/.test(l)),
    ).toBe(true);
  });

  it("the user's own hooks in Orchard's events stay; an empty list the user wrote stays", () => {
    const text = `${JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "mine" }] }], Stop: [] } }, null, 2)}\n`;
    const installed = installIntoText(text, commands);
    expect(JSON.parse(installed).hooks.SessionStart[0]).toEqual({ hooks: [{ type: "command", command: "mine" }] });
    expect(uninstallFromText(installed)).toBe(text);
  });

  it("an Orchard hook inside a group of the user's loses only its own element", () => {
    const text = `${JSON.stringify(
      {
        hooks: {
          SessionStart: [
            {
              matcher: "startup",
              hooks: [
                { type: "command", command: "mine" },
                { type: "command", command: "orchard reap-orphans --json" },
              ],
            },
          ],
        },
      },
      null,
      2,
    )}\n`;
    const out = JSON.parse(uninstallFromText(text));
    expect(out).toEqual({ hooks: { SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "mine" }] }] } });
  });

  it("a changed command (an old machine path) is replaced in place: one line of the diff", () => {
    const old = installIntoText(FILES["two spaces"] as string, hookCommands("'/usr/bin/node' '/old/dist/bin/orchard.js'"));
    const now = installIntoText(old, commands);
    const changed = lineDiff(old, now)
      .split("\n")
      .filter((l) => !l.startsWith("  "));
    expect(changed).toHaveLength(8); // four commands, each one - and one + line
    expect(now).not.toContain("/old/");
  });

  it("an older install's SessionStart `reap-orphans --json` is Orchard's: replaced in place, removed by uninstall", () => {
    const old = installIntoText(FILES["two spaces"] as string, commands).replace("orchard claude-code session-start", "orchard reap-orphans --json");
    expect(old).toContain('"command": "orchard reap-orphans --json"');
    const now = installIntoText(old, commands);
    const changed = lineDiff(old, now)
      .split("\n")
      .filter((l) => !l.startsWith("  "))
      .map((l) => l.replace(/ +/, " "))
      .sort();
    expect(changed).toEqual(['+ "command": "orchard claude-code session-start"', '- "command": "orchard reap-orphans --json"']);
    expect(uninstallFromText(old)).toBe(FILES["two spaces"]);
    // the older wrapped one too; a user's own sweep with other options (docs/recipes.md) is not Orchard's
    // an earlier release wrapped the fallback inline: `command -v orchard … && exec orchard <args> || { …; }`
    const wrapped = hookCommands("orchard", { script: SCRIPT });
    const inline = new Map([...commands].map(([event, command]) => [event, `command -v orchard >/dev/null 2>&1 && exec ${command} || { exit 0; }`]));
    const oldWrapped = installIntoText("", inline).replace("exec orchard claude-code session-start", "exec orchard reap-orphans --json");
    expect(installIntoText(installIntoText("", inline), wrapped)).toBe(installIntoText("", wrapped));
    expect(installIntoText(oldWrapped, wrapped)).toBe(installIntoText("", wrapped));
    expect(uninstallFromText(oldWrapped)).toBe("{}\n");
    for (const command of ["orchard reap-orphans --salvage --json", 'orchard reap-orphans --json --repo "$CLAUDE_PROJECT_DIR"']) {
      const mine = `${JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command }] }] } }, null, 2)}\n`;
      expect(uninstallFromText(mine)).toBe(mine);
    }
  });

  it("another WorktreeCreate hook is a conflict; a hooks value of the wrong shape is an error", () => {
    const other = JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: "command", command: "other-tool create" }] }] } });
    expect(() => installIntoText(other, commands)).toThrow(/another WorktreeCreate hook/);
    expect(() => installIntoText(JSON.stringify({ hooks: [] }), commands)).toThrow(/"hooks" is not an object/);
    expect(() => installIntoText(JSON.stringify({ hooks: { WorktreeRemove: {} } }), commands)).toThrow(/hooks.WorktreeRemove is not a list/);
  });

  it("uninstall of a file without Orchard's hooks changes nothing", () => {
    for (const text of Object.values(FILES)) expect(uninstallFromText(text)).toBe(text);
  });
});

describe("hook commands", () => {
  it("an unknown policy is refused; a known one is written as one shell word", () => {
    expect(() => hookCommands("orchard", { policy: "reuse-compatible; touch /tmp/x" })).toThrow(/--policy must be one of/);
    expect(hookCommands("orchard", { policy: "reuse-compatible" }).get("WorktreeCreate")).toBe("orchard claude-code worktree-create --policy reuse-compatible");
  });
});

describe("the native fallback (a teammate without Orchard)", () => {
  const wrapped = hookCommands("orchard", { script: SCRIPT });

  it("each command is short: sh, the script beside the settings, and orchard's arguments; recognised as Orchard's", () => {
    for (const [event, command] of wrapped) {
      expect(command).toBe(`sh ${SCRIPT}${(commands.get(event) as string).slice("orchard".length)}`);
      expect(command.length).toBeLessThan(100);
    }
  });

  for (const [name, text] of Object.entries(FILES).filter(([, t]) => t !== ""))
    it(`${name}: the wrapped hooks install once, replace the plain ones in place, and uninstall byte for byte`, () => {
      const installed = installIntoText(text, wrapped);
      expect(installIntoText(installed, wrapped)).toBe(installed);
      expect(installIntoText(installIntoText(text, commands), wrapped)).toBe(installed);
      expect(uninstallFromText(installed)).toBe(text);
    });
});
