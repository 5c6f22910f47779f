// A kept history walk (graphs.ts) is the walk git gives now: used again only for the same object
// ids, and never where git could see another graph behind them (a shallow boundary; replace refs
// and grafts never reach Orchard's git). git's own `rev-list`, run as Orchard runs it, is the oracle.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git as gitIn } from "../../../test/helpers/scenario.js";
import { readRevListParents } from "../../git/read.js";
import { graphFixedByIds, walkGraph } from "./graphs.js";

let dir: string;
let common: string;
const git = (...args: string[]): string => gitIn(dir, ...args);
const ids: Record<string, string> = {};
function commit(name: string): string {
  writeFileSync(join(dir, `${name}.txt`), `${name}\n`);
  git("add", "-A");
  git("commit", "-q", "-m", name);
  return (ids[name] = git("rev-parse", "HEAD"));
}

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "orchard-graphs-")));
  common = join(dir, ".git");
  git("init", "-q", "-b", "main");
  commit("base");
  commit("pushed");
  git("switch", "-q", "-c", "side", ids.base!);
  commit("side");
  git("switch", "-q", "main");
  commit("one");
  commit("two");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fresh = (tips: string[], excluded: string[]) => readRevListParents(dir, tips, excluded);

describe("walkGraph", () => {
  it("keeps a walk by ids, and gives git's answer for other ids", async () => {
    expect(graphFixedByIds(common)).toBe(true);
    const first = await walkGraph(dir, common, [ids.two!], [ids.pushed!]);
    expect([...first.keys()].sort()).toEqual([ids.one, ids.two].sort());
    expect(first).toEqual(await fresh([ids.two!], [ids.pushed!]));
    // the same walk (tips and exclusions in any order, repeated): the kept graph itself
    expect(await walkGraph(dir, common, [ids.two!, ids.two!], [ids.pushed!])).toBe(first);
    // other ids: walked, and what git says
    const other = await walkGraph(dir, common, [ids.two!, ids.side!], [ids.pushed!]);
    expect(other).not.toBe(first);
    expect(other).toEqual(await fresh([ids.two!, ids.side!], [ids.pushed!]));
  });

  it("never keeps a walk named by a ref: the ref may move", async () => {
    const a = await walkGraph(dir, common, ["refs/heads/main"], [ids.pushed!]);
    const b = await walkGraph(dir, common, ["refs/heads/main"], [ids.pushed!]);
    expect(b).not.toBe(a);
    expect(b).toEqual(a);
  });

  it("keeps its walk through a replace ref, loose or packed: Orchard's git never follows one (SPEC v5 §4)", async () => {
    const before = await walkGraph(dir, common, [ids.two!], [ids.base!]);
    expect(before.get(ids.one!)).toEqual([ids.pushed]);
    // `one` replaced by `side`: plain git now walks two → side → base; Orchard's git does not
    git("replace", ids.one!, ids.side!);
    expect(git("rev-list", ids.two!, `^${ids.base!}`)).not.toContain(ids.pushed!);
    expect(graphFixedByIds(common)).toBe(true);
    expect(await fresh([ids.two!], [ids.base!])).toEqual(before);
    expect(await walkGraph(dir, common, [ids.two!], [ids.base!])).toEqual(before);
    git("pack-refs", "--all");
    expect(graphFixedByIds(common)).toBe(true);
    expect(await walkGraph(dir, common, [ids.two!], [ids.base!])).toEqual(before);
    git("replace", "-d", ids.one!);
  });

  it("walks afresh with a shallow boundary, in the repository or named by the environment; grafts change nothing", () => {
    mkdirSync(join(common, "info"), { recursive: true });
    writeFileSync(join(common, "info", "grafts"), `${ids.one}\n`);
    expect(graphFixedByIds(common)).toBe(true); // never read by Orchard's git (env.ts)
    rmSync(join(common, "info", "grafts"));
    writeFileSync(join(common, "shallow"), `${ids.one}\n`);
    expect(graphFixedByIds(common)).toBe(false);
    rmSync(join(common, "shallow"));
    expect(graphFixedByIds(common)).toBe(true);
    process.env.GIT_SHALLOW_FILE = join(dir, "elsewhere");
    try {
      expect(graphFixedByIds(common)).toBe(false);
    } finally {
      delete process.env.GIT_SHALLOW_FILE;
    }
    expect(graphFixedByIds(common)).toBe(true);
  });
});
