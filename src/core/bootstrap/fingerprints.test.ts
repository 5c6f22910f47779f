import { describe, expect, it } from "vitest";
import {
  assessDrift,
  allEstablished,
  bootstrapFingerprint,
  canonicalBootstrapConfig,
  contextFingerprint,
  renderTemplate,
  runtimeFingerprint,
  shortRef,
  FAILED_FINGERPRINT,
} from "./fingerprints.js";
import type { LoadedConfig } from "../shared/config.js";

const loaded = (bootstrap: NonNullable<LoadedConfig["config"]["bootstrap"]>, copy: string[] = []): LoadedConfig => ({
  config: { bootstrap },
  source: null,
  hash: null,
  copy,
});
const vars = { task: "https://x.com/t/1", branch: "feat/a", handle: "app@feat-a-1234abcd", base: "main" };

describe("bootstrap fingerprint", () => {
  it("depends on the commands, copy, inputs and preserve lists and on the inputs' content, not on the timeout", () => {
    const config = canonicalBootstrapConfig(loaded({ run: ["npm ci"], inputs: ["package-lock.json"], timeout: "1m" }));
    const same = canonicalBootstrapConfig(loaded({ run: ["npm ci"], inputs: ["package-lock.json"], timeout: "9m" }));
    expect(same).toBe(config);
    const fp = bootstrapFingerprint(config, [["package-lock.json", "a".repeat(40)]]);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(bootstrapFingerprint(same, [["package-lock.json", "a".repeat(40)]])).toBe(fp);
    expect(bootstrapFingerprint(config, [["package-lock.json", "b".repeat(40)]])).not.toBe(fp);
    expect(bootstrapFingerprint(config, [["package-lock.json", null]])).not.toBe(fp);
    expect(canonicalBootstrapConfig(loaded({ run: ["npm ci"], inputs: ["package-lock.json"] }, [".env"]))).not.toBe(config);
    expect(canonicalBootstrapConfig(loaded({ run: ["npm install"], inputs: ["package-lock.json"] }))).not.toBe(config);
  });
});

describe("bootstrap fingerprint: linked directories and the sparse set", () => {
  it("changes with bootstrap.link and bootstrap.sparse, and is unchanged for a configuration without them", () => {
    const plain = canonicalBootstrapConfig(loaded({ run: ["npm ci"] }));
    expect(plain).toBe(JSON.stringify({ copy: [], run: ["npm ci"], inputs: [], preserve: [] }));
    expect(canonicalBootstrapConfig(loaded({ run: ["npm ci"], link: [], sparse: [] }))).toBe(plain);
    const app = canonicalBootstrapConfig(loaded({ run: ["npm ci"], sparse: ["packages/app"] }));
    const lib = canonicalBootstrapConfig(loaded({ run: ["npm ci"], sparse: ["packages/lib"] }));
    const linked = canonicalBootstrapConfig(loaded({ run: ["npm ci"], link: ["node_modules"] }));
    expect(new Set([plain, app, lib, linked]).size).toBe(4);
  });
});

describe("context and runtime fingerprints", () => {
  it("context: the order of files does not matter, their content does", () => {
    expect(
      contextFingerprint([
        ["a", "1"],
        ["b", "2"],
      ]),
    ).toBe(
      contextFingerprint([
        ["b", "2"],
        ["a", "1"],
      ]),
    );
    expect(contextFingerprint([["a", "1"]])).not.toBe(contextFingerprint([["a", "2"]]));
  });
  it("runtime: outputs are compared trimmed, exit codes count", () => {
    expect(runtimeFingerprint([{ command: "node -v", exitCode: 0, stdout: "v20\n" }])).toBe(
      runtimeFingerprint([{ command: "node -v", exitCode: 0, stdout: "v20" }]),
    );
    expect(runtimeFingerprint([{ command: "node -v", exitCode: 0, stdout: "v20" }])).not.toBe(
      runtimeFingerprint([{ command: "node -v", exitCode: 1, stdout: "v20" }]),
    );
  });
});

describe("templates", () => {
  it("fills the four variables, spaces allowed, and leaves anything else as written", () => {
    expect(renderTemplate("{{task}} {{ branch }} {{handle}} {{base}} {{other}} {task}", vars)).toBe(
      "https://x.com/t/1 feat/a app@feat-a-1234abcd main {{other}} {task}",
    );
  });
  it("a replacement containing $ patterns is inserted literally", () => {
    expect(renderTemplate("{{task}}", { ...vars, task: "$& $1 $$" })).toBe("$& $1 $$");
  });
  it("short base refs", () => {
    expect(shortRef("refs/heads/main", "c")).toBe("main");
    expect(shortRef("refs/remotes/origin/main", "c")).toBe("origin/main");
    expect(shortRef(null, "abc")).toBe("abc");
  });
});

describe("assessDrift", () => {
  const recorded = { bootstrap: "b1", context: "c1", runtime: "r1" };
  it("no drift when everything matches; runtime is compared only when it was computed", () => {
    expect(assessDrift(recorded, { bootstrap: "b1", context: "c1" })).toEqual([]);
    expect(assessDrift(recorded, { bootstrap: "b1", context: "c1", runtime: "r1" })).toEqual([]);
  });
  it("each changed fingerprint is its own reason; a current value that cannot be computed is drift", () => {
    expect(assessDrift(recorded, { bootstrap: "b2", context: null, runtime: "r2" })).toEqual(["bootstrap_drift", "context_drift", "runtime_drift"]);
  });
  it("a failed bootstrap is always reported; never-recorded fingerprints are not drift", () => {
    expect(assessDrift({ ...recorded, bootstrap: FAILED_FINGERPRINT }, { bootstrap: "b1", context: "c1" })).toEqual(["fingerprint_failed"]);
    expect(assessDrift({ bootstrap: null, context: null, runtime: null }, { bootstrap: "x", context: "y", runtime: "z" })).toEqual([]);
  });
  it("compatible needs every fingerprint established and none failed", () => {
    expect(allEstablished(recorded)).toBe(true);
    expect(allEstablished({ ...recorded, runtime: null })).toBe(false);
    expect(allEstablished({ ...recorded, bootstrap: FAILED_FINGERPRINT })).toBe(false);
  });
});
