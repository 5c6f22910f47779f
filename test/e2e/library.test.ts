// The library as a user gets it (SPEC §7): a separate Node process imports the built package by
// its name, and a TypeScript consumer type-checks against its exported types.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Scenario, git, CLI } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

let s: Scenario;
let consumer: string;

beforeEach(() => {
  s = Scenario.create();
  consumer = realpathSync(mkdtempSync(join(tmpdir(), "orchard-consumer-")));
  mkdirSync(join(consumer, "node_modules"));
  symlinkSync(ROOT, join(consumer, "node_modules", "orchard-worktrees"), "dir");
});
afterEach(() => {
  s.cleanup();
  rmSync(consumer, { recursive: true, force: true });
});

function runModule(source: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const file = join(consumer, "main.mjs");
  writeFileSync(file, source);
  const r = spawnSync(process.execPath, [file, ...args], { cwd: consumer, env: hermeticEnv(), encoding: "utf8", timeout: PROCESS_TIMEOUT_MS });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const USE_THE_LIBRARY = `
import { Orchard, OrchardError } from "orchard-worktrees";
const [repo, home] = process.argv.slice(2);
const orchard = await Orchard.open({ repo, home });
const add = await orchard.add({ branch: "feat/lib", task: "T-7", owner: "lib-agent", policy: "reuse-compatible" });
const again = await orchard.add({ branch: "feat/lib", task: "T-7", owner: "lib-agent" });
const list = await orchard.list({ full: true });
const status = await orchard.status({ target: add.handle });
let invalid = null;
try { await orchard.add({ branch: "-bad" }); } catch (error) { invalid = { isOrchardError: error instanceof OrchardError, code: error.code, kind: error.kind }; }
let unknownKey = null;
try { await orchard.list({ colour: "red" }); } catch (error) { unknownKey = { code: error.code, message: error.message }; }
let negated = null;
try { await orchard.add({ branch: "feat/negated", noBootstrap: true }); } catch (error) { negated = { code: error.code, message: error.message }; }
await orchard.close();
process.stdout.write(JSON.stringify({ add, again, list, status, invalid, unknownKey, negated }));
`;

const CLOSE_AND_DELETE = `
import { Orchard } from "orchard-worktrees";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
const [repo, home] = process.argv.slice(2);
const orchard = await Orchard.open({ repo, home });
const add = await orchard.add({ branch: "feat-close", owner: "lib-agent" });
await orchard.close();
const db = join(home, "orchard.db");
const walAfterClose = existsSync(db + "-wal");
for (const f of [db, db + "-wal", db + "-shm"]) rmSync(f, { force: true });
const reopened = await Orchard.open({ repo, home });
const fresh = await reopened.list();
await reopened.close();
process.stdout.write(JSON.stringify({ add, walAfterClose, dbRecreated: existsSync(db), fresh }));
`;

describe('import { Orchard } from "orchard-worktrees"', () => {
  it("opens with {repo, home}, resolves to the --json objects, throws usage errors, never prints", () => {
    const r = runModule(USE_THE_LIBRARY, [s.primary, s.home]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0); // and it exits by itself: close() left no handle open
    const out = JSON.parse(r.stdout); // exactly one object: the library printed nothing itself
    expect(out.add).toMatchObject({ ok: true, action: "created", branch: "feat/lib", task: "t-7", owner: "lib-agent" });
    expect(out.again).toMatchObject({ ok: true, action: "adopted", handle: out.add.handle });
    expect(git(s.primary, "worktree", "list", "--porcelain")).toContain(`worktree ${out.add.path}`);
    expect(out.list.worktrees.map((w: { handle: string }) => w.handle)).toEqual([out.add.handle]);
    expect(out.list).toEqual(s.orchard(["list", "--full"]).json);
    expect(out.status).toEqual(s.orchard(["status", out.add.handle]).json);
    expect(out.invalid).toEqual({ isOrchardError: true, code: "invalid_branch", kind: "usage" });
    expect(out.unknownKey.code).toBe("invalid_argument");
    expect(out.unknownKey.message).toMatch(/colour/);
    // one spelling: the CLI's --no-bootstrap is `bootstrap: false`, and the other spelling says so
    expect(out.negated).toEqual({ code: "invalid_argument", message: "unknown option noBootstrap: use bootstrap: false (the CLI's --no-bootstrap)" });
    expect(git(s.primary, "branch", "--list", "feat/negated")).toBe("");
  });

  it("close() releases the database: it can be deleted and a new one opened", () => {
    const r = runModule(CLOSE_AND_DELETE, [s.primary, s.home]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.add.ok).toBe(true);
    expect(out.walAfterClose).toBe(false); // the last connection closed checkpoints and removes the WAL
    expect(out.dbRecreated).toBe(true);
    expect(out.fresh.ok).toBe(true);
    expect(out.fresh.worktrees.map((w: { path: string }) => w.path)).toEqual([out.add.path]); // git is the truth about what exists
    expect(existsSync(join(s.home, "orchard.db"))).toBe(true);
  });

  it("exports its result types and the closed union of reason codes to TypeScript", () => {
    const file = join(consumer, "consumer.ts");
    writeFileSync(
      file,
      `import { Orchard, type AddResult, type ListResult, type ReasonCode, type Facts, type LivenessState } from "orchard-worktrees";
export async function take(orchard: Orchard): Promise<AddResult> {
  const r = await orchard.add({ branch: "feat-a", task: "T-1", policy: "reuse-compatible" });
  const codes: ReasonCode[] = r.reasons.map((x) => x.code);
  void codes;
  return r;
}
export function states(list: ListResult): LivenessState[] {
  return list.worktrees.map((w: Facts) => w.liveness.state);
}
export const known: ReasonCode = "dirty";
// @ts-expect-error a reason code outside the union does not compile
export const unknown: ReasonCode = "no_such_reason";
`,
    );
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const args = [
      tsc,
      "--noEmit",
      "--strict",
      "--exactOptionalPropertyTypes",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
      "--skipLibCheck",
      "--types",
      "node",
      "--typeRoots",
      join(ROOT, "node_modules", "@types"),
      file,
    ];
    const r = spawnSync(process.execPath, args, { cwd: consumer, encoding: "utf8", timeout: PROCESS_TIMEOUT_MS });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("the README and docs/ agree with the CLI", () => {
  const read = (file: string): string => readFileSync(join(ROOT, file), "utf8");
  const readme = read("README.md");
  const reference = read("docs/commands.md");
  const helps = new Map<string, string>();
  const help = (...args: string[]): string => {
    const key = args.join(" ");
    if (!helps.has(key))
      helps.set(key, spawnSync(process.execPath, [CLI, ...args, "--help"], { encoding: "utf8", env: hermeticEnv(), timeout: PROCESS_TIMEOUT_MS }).stdout);
    return helps.get(key) ?? "";
  };
  const commandsOf = (text: string) =>
    [...text.slice(text.indexOf("Commands:")).matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1] as string).filter((c) => c !== "help");
  /** The options a help text shows as its own (the global options, listed under "Global Options:", belong to the conventions). */
  const flagsOf = (text: string) =>
    [...text.split("Global Options:")[0]!.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1] as string).filter((f) => f !== "--help");
  /** GitHub's anchor of a heading: lower case, punctuation (backticks too) dropped, spaces as hyphens. */
  const anchor = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
  const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");
  const anchorsOf = (text: string) => new Set([...withoutCode(text).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1] as string)));
  /** The part of docs/commands.md from the heading `heading` up to the next heading of the same or a higher level. */
  const section = (heading: string): string => {
    const lines = reference.split("\n");
    const start = lines.indexOf(heading);
    if (start < 0) return "";
    const level = heading.indexOf(" ");
    const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.indexOf(" ") <= level);
    return lines.slice(start, end < 0 ? undefined : end).join("\n");
  };

  it("docs/commands.md documents every command, and every option `--help` shows in that command's own section", () => {
    const missing: string[] = [];
    const conventions = section("## Conventions of every command");
    for (const flag of ["--version", ...flagsOf(help())]) if (!conventions.includes(`\`${flag}`)) missing.push(`global ${flag}`);
    for (const command of commandsOf(help())) {
      const own = section(`### \`orchard ${command}\``);
      if (own === "") missing.push(`### \`orchard ${command}\``);
      const subcommands = help(command).includes("Commands:") ? commandsOf(help(command)).map((sub) => [command, sub]) : [[command]];
      for (const words of subcommands) {
        if (!own.includes(`orchard ${words.join(" ")}`)) missing.push(`orchard ${words.join(" ")}`);
        for (const flag of flagsOf(help(...words))) if (!own.includes(`\`${flag}`)) missing.push(`${words.join(" ")} ${flag}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the README's command table has one row per command, linking to that command's section of docs/commands.md", () => {
    const rows = [...readme.matchAll(/^\| \[`orchard ([a-z-]+)[^\]]*\]\(docs\/commands\.md#([^)]+)\) \| .+ \|$/gm)].map((m) => [m[1], m[2]]);
    expect(rows.map(([command]) => command).sort()).toEqual(commandsOf(help()).sort());
    const anchors = anchorsOf(reference);
    for (const [command, target] of rows) {
      expect(target).toBe(anchor(`\`orchard ${command}\``));
      expect(anchors.has(target as string), `docs/commands.md has no heading for #${target}`).toBe(true);
    }
  });

  it("every relative link of the README and docs/ leads to a file and, with a #fragment, to one of its headings", () => {
    const files = [
      "README.md",
      ...readdirSync(join(ROOT, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    const broken: string[] = [];
    for (const file of files) {
      for (const [, link] of withoutCode(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(link as string)) continue;
        const [path, fragment] = (link as string).split("#") as [string, string | undefined];
        const target = path === "" ? file : relative(ROOT, resolve(ROOT, dirname(file), path));
        if (!existsSync(join(ROOT, target))) broken.push(`${file}: ${link} (no such file)`);
        else if (fragment !== undefined && !anchorsOf(read(target)).has(fragment)) broken.push(`${file}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("docs/reasons.md's reason-code table is generated from src/core/shared/reasons/reasons.ts and up to date", () => {
    const r = spawnSync(process.execPath, [join(ROOT, "scripts", "reason-table.mjs"), "--check", join(ROOT, "docs", "reasons.md")], {
      encoding: "utf8",
      timeout: PROCESS_TIMEOUT_MS,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
