// What a warm MCP server keeps between calls, and when it reads again; its trace counts the git
// commands each call ran.
//
// The program guard (git/warm/guard-cache.ts) is read again only when a file it comes from has changed
// (SPEC v3 §4.1). Between calls the test plants programs the way an agent could (the repository's
// config, a worktree's config.worktree, an edit in place that keeps the size and the modification
// time), and every one is read before the next git call: no program runs.
//
// The history walks (core/facts/graphs.ts) run again only when the walk's object ids changed: a
// status of the same head beside the same remote-tracking tips reuses the walk, and every fact
// still matches git — a new commit, a push, a merge into the default branch, a replace ref that
// shows git another graph behind the same ids.
import { beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, type Scenario } from "../helpers/scenario.js";
import { HERMETIC_ENV } from "../helpers/env.js";
import { tracedScenarios } from "../helpers/mcp-traced.js";

const traced = tracedScenarios();
let s: Scenario;
beforeEach(() => {
  s = traced.scenario();
});

describe("the program guard of a warm MCP server", () => {
  it("is read again whenever a file it comes from changes, and only then; no planted program runs", async () => {
    // a tracked file whose attributes name the `evil` filter, as in config-programs.test.ts
    const markers = join(s.root, "markers");
    mkdirSync(markers);
    const program = join(s.root, "program.sh");
    writeFileSync(program, `#!/bin/sh\ntouch '${markers}'/"$1"\nexec cat\n`);
    chmodSync(program, 0o755);
    writeFileSync(join(s.primary, ".gitattributes"), "*.dat filter=evil\n");
    writeFileSync(join(s.primary, "data.dat"), "data\n");
    git(s.primary, "add", "-A");
    git(s.primary, "commit", "-q", "-m", "attributes");
    git(s.primary, "push", "-q", "origin", "main");

    const server = await traced.open();
    const call = server.call;
    const guardReads = () => server.traced('"config","-z","--show-scope"');
    /** The guard reads of one status call of the worktree, which reads its status (the filter's path). */
    const readsOfOneStatus = async (): Promise<number> => {
      const before = guardReads();
      const status = await call("orchard_status", { target: handle });
      expect(status.ok, JSON.stringify(status)).toBe(true);
      return guardReads() - before;
    };
    /** Until every config file (and the worktrees' admin dirs, their config.worktree) is older than the cache's racy margin. */
    const settle = async () => {
      const admins = join(s.primary, ".git", "worktrees");
      const worktreeConfigs = readdirSync(admins)
        .map((id) => join(admins, id, "config.worktree"))
        .filter((f) => existsSync(f));
      const files = [HERMETIC_ENV.GIT_CONFIG_GLOBAL!, join(s.primary, ".git", "config"), admins, ...worktreeConfigs];
      const newest = Math.max(...files.map((f) => Math.max(statSync(f).ctimeMs, statSync(f).mtimeMs)));
      while (Date.now() < newest + 2_100) await new Promise((resolve) => setTimeout(resolve, 100));
    };

    const added = await call("orchard_add", { branch: "feat-guard", owner: "agent-g" });
    expect(added.ok, JSON.stringify(added)).toBe(true);
    const handle = added.handle as string;
    await settle();
    await readsOfOneStatus(); // read, and kept: nothing changed within the margin
    expect(await readsOfOneStatus()).toBe(0);
    expect(await readsOfOneStatus()).toBe(0);

    // the repository's config names the filter's program: read again before the status
    git(s.primary, "config", "filter.evil.clean", `${program} repo-clean`);
    expect(await readsOfOneStatus()).toBe(1);

    // a worktree's config.worktree names it while the extension is off: git reads no config.worktree,
    // so none is watched (not read again) and the program does not run when the status cleans the file
    await settle();
    await readsOfOneStatus();
    const admin = git(added.path, "rev-parse", "--absolute-git-dir");
    writeFileSync(join(admin, "config.worktree"), `[filter "evil"]\n\tclean = ${program} off-clean\n`);
    writeFileSync(join(added.path, "data.dat"), "unseen\n");
    expect(await readsOfOneStatus()).toBe(0);
    expect(readdirSync(markers)).toEqual([]);
    // the extension turned on (the repository's config changed): read again, that file now counts
    git(s.primary, "config", "extensions.worktreeConfig", "true");
    expect(await readsOfOneStatus()).toBe(1);
    // and with it on, a change of a config.worktree alone is read again
    await settle();
    expect(await readsOfOneStatus()).toBe(1); // the last change was within the margin: read, now kept
    expect(await readsOfOneStatus()).toBe(0);
    git(added.path, "config", "--worktree", "filter.evil.clean", `${program} worktree-clean`);
    expect(await readsOfOneStatus()).toBe(1);

    // an edit in place that keeps the size and puts the modification time back: its change time tells
    await settle();
    expect(await readsOfOneStatus()).toBe(1); // the last change was within the margin: read, now kept
    expect(await readsOfOneStatus()).toBe(0);
    const config = join(s.primary, ".git", "config");
    const before = statSync(config, { bigint: true });
    const text = readFileSync(config, "utf8");
    writeFileSync(config, text.replace("repo-clean", "repo-klean"));
    // the modification time put back to the nanosecond (touch does what utimes' float seconds cannot)
    const ns = before.mtimeNs % 1_000_000_000n;
    execFileSync("touch", ["-m", "-d", `@${before.mtimeNs / 1_000_000_000n}.${String(ns).padStart(9, "0")}`, config]);
    const after = statSync(config, { bigint: true });
    expect([after.size, after.ino, after.mtimeNs]).toEqual([before.size, before.ino, before.mtimeNs]);
    expect(await readsOfOneStatus()).toBe(1);

    // a new worktree (a new config.worktree path, present or not) is a change too
    await settle();
    await readsOfOneStatus();
    const other = await call("orchard_add", { branch: "feat-other", owner: "agent-h" });
    expect(other.ok, JSON.stringify(other)).toBe(true);
    expect(await readsOfOneStatus()).toBe(1);

    // and nothing the repository named ever ran
    writeFileSync(join(added.path, "data.dat"), "changed\n");
    const dirty = await call("orchard_status", { target: handle });
    expect(dirty.ok, JSON.stringify(dirty)).toBe(true);
    expect(readdirSync(markers)).toEqual([]);
  });
});

describe("the history walks of a warm MCP server", () => {
  it("are kept for the same ids, walked again when an id changes, and every count is git's", async () => {
    const server = await traced.open();
    const call = server.call;
    const walks = () => server.traced('["rev-list","--parents","--stdin"]');
    /** One status: the worktree's unpushed count and merge verdict, and how many walks it ran. */
    const status = async () => {
      const before = walks();
      const r = await call("orchard_status", { target: handle });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      return { unpushed: r.worktree.unpushed, merged: r.worktree.merged?.how ?? null, walks: walks() - before };
    };
    /** git's own count of the worktree's commits on no remote-tracking ref and not on main. */
    const gitUnpushed = () => Number(git(path, "rev-list", "--count", "HEAD", "--not", "--remotes", "refs/heads/main"));

    const added = await call("orchard_add", { branch: "feat-walk", owner: "agent-w" });
    expect(added.ok, JSON.stringify(added)).toBe(true);
    const handle = added.handle as string;
    const path = added.path as string;

    s.commit({ in: path, file: "a.txt", content: "a\n" });
    const first = await status();
    expect(first.walks).toBeGreaterThan(0);
    expect(first.unpushed).toBe(1);
    expect(first.unpushed).toBe(gitUnpushed());
    // the same head beside the same tips: the walks are kept
    expect(await status()).toEqual({ unpushed: 1, merged: null, walks: 0 });
    expect(await status()).toEqual({ unpushed: 1, merged: null, walks: 0 });

    // a new head: walked again
    s.commit({ in: path, file: "b.txt", content: "b\n" });
    expect(await status()).toMatchObject({ unpushed: 2, walks: first.walks });
    expect(gitUnpushed()).toBe(2);

    // pushed: a new remote-tracking tip at the head itself: the unpushed proof needs no walk (the head is a tip
    // it excludes: core/facts/graphs.ts), and the merge walk is kept (the same head and targets)
    git(path, "push", "-q", "origin", "feat-walk");
    const pushed = await status();
    expect(first.walks).toBe(2);
    expect(pushed).toMatchObject({ unpushed: 0, walks: 0 });
    expect(gitUnpushed()).toBe(0);
    expect((await status()).walks).toBe(0);

    // merged into main by a merge commit (a new default-branch tip): the merge walk again, the verdict follows
    git(s.primary, "merge", "-q", "--no-ff", "-m", "merge feat-walk", "feat-walk");
    // (the unpushed proof still walks nothing: the head is still its remote-tracking tip)
    expect(await status()).toEqual({ unpushed: 0, merged: "ancestor", walks: 1 });

    // a replace ref shows plain git another graph behind the same ids; Orchard's git never follows one
    // (SPEC v5 §4): the kept walks stay, and the count is git's with replace objects off
    s.commit({ in: path, file: "c.txt", content: "c\n" });
    const own = git(path, "rev-parse", "HEAD");
    await status();
    expect((await status()).walks).toBe(0);
    git(s.primary, "replace", own, git(s.primary, "rev-parse", "main"));
    expect(await status()).toEqual({ unpushed: 1, merged: null, walks: 0 });
    expect(Number(git(path, "--no-replace-objects", "rev-list", "--count", "HEAD", "--not", "--remotes", "refs/heads/main"))).toBe(1);
    git(s.primary, "replace", "-d", own);
    expect((await status()).unpushed).toBe(1);
    expect(gitUnpushed()).toBe(1);
  });
});
