// SPEC v3 §4.1: a program named by the repository's config, a worktree's config.worktree or a file
// they include never runs from an Orchard git call unless the repository is trusted. Each setting
// of git/programs/policy.ts is planted from each source as a tiny script that leaves a marker file, and
// every command that could reach it runs; no marker may appear. Then `orchard trust`: the same
// settings run (the test can fail). Last, a clean filter that lies about a change makes the
// worktree's status unknown, never clean or reclaimable.
//
// The matrix (five sources × seven MCP calls and fifteen commands): the commands' cases of a source
// share one repository and run in order against it, one command each, so no case carries the whole
// list's time on a busy machine; the settings are written into the config files directly (a git
// process per key and per include was most of a source's set-up: 42 s of the 70-include one at load 15).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Scenario, deadPid, git, gitResult, type CliResult } from "../helpers/scenario.js";
import { tracedServer } from "../helpers/mcp-traced.js";

/** Where the settings are planted: the common config; each worktree's config.worktree; a file the common config
 * includes; the 70th of 70 files a config.worktree includes (past any cap); a file an includeIf names. */
type Source = "repo" | "worktree" | "include" | "breadth" | "includeif";

let dir: string;
let markers: string;
let script: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "orchard-programs-")));
  markers = join(dir, "markers");
  mkdirSync(markers);
  script = join(dir, "program.sh");
  // leaves `<markers>/<label>`; as a filter it passes its input through, as anything else it succeeds
  writeFileSync(script, `#!/bin/sh\nlabel="$1"; shift\ntouch '${markers}'/"$label"\ncase "$label" in *clean|*smudge) exec cat ;; esac\nexit 0\n`);
  chmodSync(script, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every program setting of git/programs/policy.ts, each naming the script with its own label. */
function settings(source: Source): [string, string][] {
  const p = (label: string) => `${script} ${source}-${label}`;
  return [
    ["core.fsmonitor", p("fsmonitor")],
    ["filter.evil.clean", p("clean")],
    ["filter.evil.smudge", p("smudge")],
    ["filter.evilp.process", p("process")],
    ["commit.gpgSign", "true"],
    ["gpg.program", p("gpg")],
    ["merge.evil.driver", `${p("merge")} %O %A %B`],
    ["diff.evil.textconv", p("textconv")],
    ["diff.evil.command", p("diffcmd")],
    ["diff.external", p("extdiff")],
    ["core.sshCommand", p("ssh")],
    ["core.askPass", p("askpass")],
    ["credential.helper", `!${p("credential")}`],
  ];
}

const ran = (): string[] => readdirSync(markers).sort();
const clear = (): void => {
  for (const m of readdirSync(markers)) rmSync(join(markers, m));
};

/** A repository whose tracked `.gitattributes` sends `*.dat` through the `evil` drivers. */
function fixture(): Scenario {
  const s = Scenario.create();
  writeFileSync(join(s.primary, ".gitattributes"), "*.dat filter=evil merge=evil diff=evil\n*.proc filter=evilp\n");
  writeFileSync(join(s.primary, "data.dat"), "data\n");
  writeFileSync(join(s.primary, "x.proc"), "proc\n");
  git(s.primary, "add", "-A");
  git(s.primary, "commit", "-q", "-m", "attributes");
  git(s.primary, "push", "-q", "origin", "main");
  return s;
}

/** A config value as git writes it: quoted only where git's syntax needs it. */
function configValue(value: string): string {
  const escaped = value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t");
  return /^\s|\s$|[;#]/.test(value) ? `"${escaped}"` : escaped;
}

/**
 * Appends `entries` to the config file `file` as `git config --file <file> --add` would write them,
 * in one write: the matrix plants 13 settings in up to five files of each repository (and 70
 * includes in each of them for `breadth`), and a git process per key was most of the fixture's cost.
 */
function appendConfig(file: string, entries: [string, string][]): void {
  const text = entries.map(([key, value]) => {
    const first = key.indexOf(".");
    const last = key.lastIndexOf(".");
    const section = key.slice(0, first);
    const sub =
      first === last
        ? ""
        : ` "${key
            .slice(first + 1, last)
            .replace(/\\/g, "\\\\")
            .replace(/"/g, '\\"')}"`;
    return `[${section}${sub}]\n\t${key.slice(last + 1)} = ${configValue(value)}\n`;
  });
  appendFileSync(file, text.join(""));
}

/** The config file `git config --worktree` writes in the worktree at `at`. */
const worktreeConfig = (at: string): string => git(at, "rev-parse", "--path-format=absolute", "--git-path", "config.worktree");

/** Plants the settings from `source`; for `worktree` and `breadth`, in the primary's config.worktree and in each of `worktrees`. */
function plant(s: Scenario, source: Source, worktrees: string[] = []): void {
  const entries = settings(source);
  if (source === "repo") appendConfig(join(git(s.primary, "rev-parse", "--path-format=absolute", "--git-common-dir"), "config"), entries);
  if (source === "include") {
    const file = join(s.root, "included.gitconfig");
    appendConfig(file, entries);
    git(s.primary, "config", "include.path", file);
  }
  if (source === "worktree") {
    git(s.primary, "config", "extensions.worktreeConfig", "true");
    for (const at of [s.primary, ...worktrees]) appendConfig(worktreeConfig(at), entries);
  }
  if (source === "breadth") {
    git(s.primary, "config", "extensions.worktreeConfig", "true");
    const files = Array.from({ length: 70 }, (_, i) => join(s.root, `breadth-${i}.gitconfig`));
    files.forEach((file, i) => writeFileSync(file, i === 69 ? "" : "[core]\n\tquotePath = true\n"));
    appendConfig(files[69]!, entries);
    for (const at of [s.primary, ...worktrees])
      appendConfig(
        worktreeConfig(at),
        files.map((file) => ["include.path", file]),
      );
  }
  if (source === "includeif") {
    const file = join(s.root, "conditional.gitconfig");
    appendConfig(file, entries);
    git(s.primary, "config", "includeIf.gitdir:/.path", file); // holds in every worktree of the repository
  }
}

/** Runs one command and returns which programs ran. Untrusted, the answer is a result, a refusal or an unknown: never a crash. */
function run(s: Scenario, args: string[], options: { trusted?: boolean } = {}): { r: CliResult; ran: string[] } {
  clear();
  const r = s.orchard(args);
  // trusted, the scripts run and fail git's protocols (a process filter, a signature): any exit.
  // Untrusted, never a usage error either: that would have reached no git call at all.
  if (!options.trusted) expect([1, 2], `${args.join(" ")}: ${r.stdout}${r.stderr}`).not.toContain(r.code);
  return { r, ran: ran() };
}

/** An executor worktree of a wave: one commit of its own (`file`), made with plain git. */
function executor(s: Scenario, n: number, file: string): { agent_id: string; worktree_path: string; branch: string; expected_base: string } {
  const base = git(s.primary, "rev-parse", "main");
  const branch = `worktree-agent-${n}`;
  const path = s.worktree(branch);
  s.commit({ in: path, file, content: `agent ${n}\n` });
  return { agent_id: `agent-${n}`, worktree_path: path, branch, expected_base: base };
}

/** A salvage ref made by hand (plain git): data.dat changed, Orchard's metadata in the body. */
function salvageRef(s: Scenario): string {
  const head = git(s.primary, "rev-parse", "main");
  const wt = s.worktree("salvage-src");
  writeFileSync(join(wt, "data.dat"), "salvaged\n");
  git(wt, "add", "-A");
  const tree = git(wt, "write-tree");
  const meta = { orchardSalvage: 1, path: wt, handle: null, branch: "salvage-src", head, reason: "manual", time: "2026-01-01T00:00:00Z" };
  const commit = git(wt, "commit-tree", "--no-gpg-sign", "-p", head, "-m", `orchard salvage of ${wt}\n\n${JSON.stringify(meta)}`, tree);
  git(s.primary, "worktree", "remove", "--force", wt);
  const ref = "refs/orchard/salvage/salvage-src/20260101T000000Z";
  git(s.primary, "update-ref", ref, commit);
  return ref;
}

/** One repository per source, shared by the source's cases (they run in order; the later commands change it). */
interface Fixture {
  s: Scenario;
  /** The Orchard worktree `feat-a` (owner o1). */
  handle: string;
  /** The linked worktrees of the commands' cases: feat-a, an orphan, the wave's two executors. */
  worktrees: string[];
  manifest: string;
  ref: string;
}

function build(source: Source): Fixture {
  const s = fixture();
  try {
    const add = s.orchard(["add", "feat-a", "--owner", "o1", "--no-bootstrap"]);
    expect(add.code, add.stderr).toBe(0);
    const orphan = s.worktree("worktree-agent-9", { lock: `claude agent agent-9 (pid ${deadPid()})` });
    s.ageLock(orphan, 600);
    const clean = executor(s, 1, "agent-1.txt"); // merges cleanly: the merge commit would be signed
    const conflicting = executor(s, 2, "data.dat"); // main changes data.dat too: the merge driver decides
    s.commit({ file: "data.dat", content: "main\n" });
    const ref = salvageRef(s);
    const worktrees = [add.json.path as string, orphan, clean.worktree_path, conflicting.worktree_path];
    plant(s, source, worktrees);
    const manifest = join(s.root, "wave.json");
    writeFileSync(manifest, JSON.stringify([clean, conflicting]));
    return { s, handle: add.json.handle as string, worktrees, manifest, ref };
  } catch (error) {
    s.cleanup();
    throw error;
  }
}

/** Every tracked file's stat data changed, content as committed: a status must read each one again (through the clean filter, if any). */
function touchTracked(f: Fixture): void {
  for (const wt of f.worktrees)
    for (const file of ["data.dat", "x.proc", "README.md"])
      writeFileSync(join(wt, file), `${file === "data.dat" ? "data" : file === "x.proc" ? "proc" : "# app"}\n`);
}

/**
 * The commands that could reach a program, in the order they run against one repository: each is
 * its own case (one CLI process), so no case carries the whole list's time under load.
 */
const COMMANDS: [string, (f: Fixture) => string[]][] = [
  ["add (create: checkout, smudge)", () => ["add", "feat-b", "--owner", "o2", "--no-bootstrap"]],
  ["add (adopt: status)", () => ["add", "feat-a", "--owner", "o1", "--no-bootstrap"]],
  ["status", (f) => ["status", f.handle]],
  ["list --full", () => ["list", "--full"]],
  ["hygiene", () => ["hygiene"]],
  ["hygiene --disk", () => ["hygiene", "--disk"]],
  ["cleanup plan", () => ["cleanup", "plan"]],
  ["reap-orphans --dry-run", () => ["reap-orphans", "--dry-run"]],
  ["reap-orphans --salvage", () => ["reap-orphans", "--salvage"]],
  ["cleanup-wave --dry-run", (f) => ["cleanup-wave", "--manifest", f.manifest, "--dry-run"]],
  ["cleanup-wave", (f) => ["cleanup-wave", "--manifest", f.manifest]],
  ["cleanup run", () => ["cleanup", "run"]],
  ["release", (f) => ["release", f.handle, "--owner", "o1"]],
  ["recycle", (f) => ["recycle", f.handle, "--branch", "feat-c", "--owner", "o3"]],
  ["salvage restore", (f) => ["salvage", "restore", f.ref]],
];

describe.each(["repo", "worktree", "include", "breadth", "includeif"] as const)("programs named from the %s config", (source) => {
  let f: Fixture;
  beforeAll(() => {
    f = build(source);
  });
  afterAll(() => f?.s.cleanup());

  it("are what git itself reads there (the fixture writes the files as git config would)", () => {
    const where = source === "worktree" || source === "breadth" ? [f.s.primary, ...f.worktrees] : [f.s.primary, f.worktrees[0]!];
    for (const at of where) {
      const read = git(at, "config", "--get-regexp", "^(core|filter|commit|gpg|merge|diff|credential)\\.").split("\n");
      for (const [key, value] of settings(source)) expect(read, `${at}: ${key}`).toContain(`${key.toLowerCase()} ${value}`);
    }
  });

  // its own repository: the server's adds lease to this process (its client), which the commands' cases
  // (a release, `orchard trust`) must not run beside
  it("run from no MCP tool of an untrusted repository", async () => {
    const s = fixture();
    try {
      const add = s.orchard(["add", "feat-m", "--owner", "o1", "--no-bootstrap"]);
      expect(add.code, add.stderr).toBe(0);
      plant(s, source, [add.json.path]);
      writeFileSync(join(add.json.path, "data.dat"), "DATA\n"); // the same size: status must read it through the filter
      clear();
      const server = await tracedServer(s.home, s.primary);
      try {
        const calls: [string, Record<string, unknown>][] = [
          ["orchard_status", { target: add.json.handle }],
          ["orchard_list", { full: true }],
          ["orchard_hygiene", {}],
          ["orchard_reap_orphans", { dryRun: true }],
          ["orchard_cleanup_plan", {}],
          ["orchard_add", { branch: "feat-m", owner: "o1" }],
          ["orchard_add", { branch: "feat-n", owner: "o2", bootstrap: false }],
        ];
        for (const [name, args] of calls) {
          await server.call(name, args);
          expect(ran(), `${name} ${JSON.stringify(args)}`).toEqual([]);
        }
      } finally {
        await server.client.close();
      }
    } finally {
      s.cleanup();
    }
  });

  describe("run from no command of an untrusted repository", () => {
    beforeAll(() => touchTracked(f));
    for (const [name, args] of COMMANDS)
      it(name, () => {
        const command = args(f);
        expect(run(f.s, command).ran, command.join(" ")).toEqual([]);
      });
    it("and the wave's conflicting entry stays unmerged (no merge driver decided it)", () => {
      expect(gitResult(f.s.primary, "rev-parse", "--verify", "--quiet", "refs/heads/worktree-agent-2").code).toBe(0);
    });
  });

  it("run once it is trusted: those of the common config, never a config.worktree's or an include's, never fsmonitor", () => {
    const { s, manifest } = f;
    touchTracked(f);
    // trusted: the programs the owner saw in the common config are git's to run again (SPEC v4 §4.1);
    // what a config.worktree or an include names is never covered by trust
    writeFileSync(join(s.primary, ".orchard.json"), "{}\n");
    const granted = s.orchard(["trust", "--yes"]);
    expect(granted.code, granted.stdout + granted.stderr).toBe(0);
    const seen = new Set<string>();
    for (const args of [["hygiene"], ["add", "feat-d", "--owner", "o4", "--no-bootstrap"], ["cleanup-wave", "--manifest", manifest]])
      for (const m of run(s, args, { trusted: true }).ran) seen.add(m);
    if (source === "repo") for (const label of ["clean", "smudge", "process"]) expect([...seen]).toContain(`${source}-${label}`);
    else expect([...seen]).toEqual([]);
    // an fsmonitor hook, trusted or not, never runs: a status feeds destructive verdicts and reads the disk itself (SPEC v5 §4)
    expect([...seen]).not.toContain(`${source}-fsmonitor`);
  });
});

describe("a clean filter that lies about a change", () => {
  it("makes the worktree's status unknown: not reclaimable, and cleanup leaves it (trusted, the lie is believed)", () => {
    const s = fixture();
    try {
      const add = s.orchard(["add", "feat-lie", "--owner", "o1", "--no-bootstrap"]);
      expect(add.code, add.stderr).toBe(0);
      expect(s.orchard(["release", add.json.handle, "--owner", "o1"]).code).toBe(0);
      // whatever the file holds, the filter says it holds what was committed
      git(s.primary, "config", "filter.evil.clean", "cat >/dev/null; printf 'data\\n'");
      writeFileSync(join(add.json.path, "data.dat"), "work\n"); // the committed size: git must ask the filter
      const hygiene = s.orchard(["hygiene"]);
      const row = hygiene.json.worktrees.find((w: { path: string }) => w.path === add.json.path);
      expect(row).toMatchObject({ disposition: "unknown", dirty: null, reasons: [expect.objectContaining({ code: "fact_unknown", fact: "dirty" })] });
      expect(s.orchard(["cleanup", "run"]).code).not.toBe(1);
      expect(readFileSync(join(add.json.path, "data.dat"), "utf8")).toBe("work\n");

      writeFileSync(join(s.primary, ".orchard.json"), "{}\n");
      expect(s.orchard(["trust", "--yes"]).code).toBe(0);
      const trusted = s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === add.json.path);
      expect(trusted.disposition).toBe("reclaimable"); // the lie, believed: why an untrusted repository's filter may not decide
    } finally {
      s.cleanup();
    }
  });
});

describe("trust covers what runs (SPEC v4 §4.1)", () => {
  it("a program added later, or changed, in any source, stays off until trusted again", () => {
    const s = fixture();
    try {
      const add = s.orchard(["add", "feat-t", "--owner", "o1", "--no-bootstrap"]);
      expect(add.code, add.stderr).toBe(0);
      writeFileSync(join(s.primary, ".orchard.json"), "{}\n");
      git(s.primary, "config", "filter.evil.clean", `${script} trusted-clean`);
      const granted = s.orchard(["trust", "--yes"]);
      expect(granted.code, granted.stderr).toBe(0);
      expect(granted.json.programs).toEqual([{ key: "filter.evil.clean", value: `${script} trusted-clean` }]);
      // the same size, new stat data: status must read the file again, through the clean filter
      writeFileSync(join(add.json.path, "data.dat"), "DATA\n");
      expect(run(s, ["hygiene"], { trusted: true }).ran).toContain("trusted-clean"); // what the owner trusted runs

      // an agent names a new program in its own config.worktree, and changes the trusted one
      git(s.primary, "config", "extensions.worktreeConfig", "true");
      git(add.json.path, "config", "--worktree", "core.fsmonitor", `${script} agent-fsmonitor`);
      git(s.primary, "config", "filter.evil.clean", `${script} changed-clean`);
      writeFileSync(join(add.json.path, "data.dat"), "Data\n");
      for (const args of [["hygiene"], ["status", add.json.handle], ["list", "--full"]]) expect(run(s, args).ran, args.join(" ")).toEqual([]);
    } finally {
      s.cleanup();
    }
  });

  it("is never granted by an agent: orchard trust run inside a linked worktree is refused (trust_from_agent)", () => {
    const s = fixture();
    try {
      const add = s.orchard(["add", "feat-u", "--no-bootstrap"]);
      writeFileSync(join(s.primary, ".orchard.json"), "{}\n");
      const r = s.orchard(["trust", "--repo", s.primary, "--yes"], { cwd: add.json.path }); // --yes does not make an agent a person;
      expect(r.code, r.stdout + r.stderr).toBe(3);
      expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(["trust_from_agent"]);
      expect(s.orchard(["trust", "--yes"]).code).toBe(0); // the owner, from the primary
    } finally {
      s.cleanup();
    }
  });
});
