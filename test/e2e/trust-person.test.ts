// `orchard trust` is a person's act (SPEC v5, issue 46 item 11). Ancestry cannot tell an agent's
// detached process (`(cd primary; orchard trust) & disown`) from the owner: without a terminal on
// stdin and without `--yes` (which the docs reserve to a person typing it), trust is refused
// `trust_needs_person` (exit 3) and nothing is recorded. `trust_from_agent` still refuses an agent's
// process even with `--yes`.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CLI, Scenario, waitFor } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { orchardInPty } from "../helpers/pty.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
  writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { run: ["touch made-by-bootstrap"] } }));
});
afterEach(() => s.cleanup());

const untrustedRun = (branch: string) => s.orchard(["add", branch]).json.bootstrap.steps.some((x: { reason?: string }) => x.reason === "config_untrusted");

describe("orchard trust needs a person", () => {
  it("a detached process with no terminal is refused trust_needs_person, and nothing is trusted", async () => {
    const out = join(s.root, "trust.json");
    const quote = (t: string) => `'${t.replaceAll("'", `'\\''`)}'`;
    const shell = `(cd ${quote(s.primary)} && ${quote(process.execPath)} ${quote(CLI)} --json --home ${quote(s.home)} trust > ${quote(`${out}.tmp`)} 2>&1 < /dev/null; mv ${quote(`${out}.tmp`)} ${quote(out)}) &`;
    const child = spawn("sh", ["-c", shell], { env: hermeticEnv(), stdio: "ignore", detached: true });
    child.unref();
    await waitFor(() => existsSync(out), "the detached trust to answer");
    const json = JSON.parse(readFileSync(out, "utf8"));
    expect(json).toMatchObject({ ok: false, trusted: false, reasons: [{ code: "trust_needs_person", why: expect.stringContaining("not a terminal") }] });
    expect(untrustedRun("feat-a")).toBe(true);

    const piped = s.orchard(["trust"]);
    expect(piped.code).toBe(3);
    expect(piped.json.reasons.map((r: { code: string }) => r.code)).toEqual(["trust_needs_person"]);
    expect(untrustedRun("feat-b")).toBe(true);
  });

  it("a terminal on stdin, or --yes, is the person", () => {
    const tty = orchardInPty(["--home", s.home, "trust"], { cols: 200, cwd: s.primary });
    expect(tty.code, tty.raw).toBe(0);
    expect(untrustedRun("feat-a")).toBe(false);
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { run: ["touch made-again"] } }));
    expect(untrustedRun("feat-b")).toBe(true);
    const yes = s.orchard(["trust", "--yes"]);
    expect(yes.code).toBe(0);
    expect(yes.json).toMatchObject({ ok: true, trusted: true });
    expect(untrustedRun("feat-c")).toBe(false);
  });

  it("the library asks for yes as well (its caller has no terminal here)", () => {
    const lib = join(dirname(CLI), "..", "index.js");
    const script = `import { Orchard } from ${JSON.stringify(lib)}; const o = await Orchard.open({ repo: process.argv[1], home: process.argv[2] });
      const no = await o.trust(); const yes = await o.trust({ yes: true }); process.stdout.write(JSON.stringify([no, yes]));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script, s.primary, s.home], { env: hermeticEnv(), encoding: "utf8", input: "" });
    const [no, yes] = JSON.parse(r.stdout);
    expect(no).toMatchObject({ ok: false, reasons: [{ code: "trust_needs_person" }] });
    expect(yes).toMatchObject({ ok: true, trusted: true });
  });
});
