import { describe, expect, it } from "vitest";
import { configSchema, parseFloor, parseSize } from "./config.js";

const issues = (value: unknown): string[] => {
  const parsed = configSchema().safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}:${i.code}`);
};

describe("configSchema", () => {
  it("accepts the documented example", () => {
    expect(
      issues({
        defaultBranch: "main",
        bootstrap: {
          copy: [".env", "/config/*.local"],
          run: ["npm ci"],
          inputs: ["package-lock.json"],
          preserve: ["node_modules", "**/node_modules"],
          timeout: "10m",
        },
        context: { files: { "AGENTS.local.md": "docs/agent-context.md" } },
        runtime: { probe: ["node --version"] },
        lease: { ttl: "2h" },
        reap: { guard: "5m" },
        wave: { branchPattern: "^worktree-agent-[A-Za-z0-9._/-]+$", allowDeletions: false },
      }),
    ).toEqual([]);
  });
  it("names the key path of unknown keys and wrong types", () => {
    expect(issues({ bootstrap: { timeout: "soon", extra: 1 } }).sort()).toEqual(["bootstrap.timeout:custom", "bootstrap:unrecognized_keys"]);
    expect(issues({ runtime: { probe: "node -v" } })).toEqual(["runtime.probe:invalid_type"]);
  });
  it("paths and patterns cannot leave the repository", () => {
    expect(issues({ bootstrap: { inputs: ["/etc/passwd"], copy: ["../x"], preserve: ["a/../../b"] } })).toEqual([
      "bootstrap.copy.0:custom",
      "bootstrap.inputs.0:custom",
      "bootstrap.preserve.0:custom",
    ]);
    expect(issues({ context: { files: { "../out.md": "docs/a.md" } } })).toHaveLength(1);
    expect(issues({ bootstrap: { inputs: ["a\nb"] } })).toEqual(["bootstrap.inputs.0:custom"]);
  });
});

describe("sizes and floors (disk.shareBudget, disk.minFree, --until-free)", () => {
  it.each([
    ["4096", 4096],
    ["10GiB", 10 * 2 ** 30],
    ["500 MiB", 500 * 2 ** 20],
    ["2GB", 2e9],
    ["1.5k", 1500],
    ["10 parsecs", null],
    ["-1GiB", null],
    ["", null],
  ] as const)("parseSize(%j) = %j", (text, bytes) => expect(parseSize(text)).toBe(bytes));

  it.each([
    ["5%", { percent: 5 }],
    ["100%", { percent: 100 }],
    ["101%", null],
    ["10GiB", { bytes: 10 * 2 ** 30 }],
    ["lots", null],
  ] as const)("parseFloor(%j) = %j", (text, floor) => expect(parseFloor(text)).toEqual(floor));
});
