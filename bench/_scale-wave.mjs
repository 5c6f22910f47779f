// The cleanup-wave rows of the scale table (bench/scale.mjs): W agent branches of one commit each,
// against git's own loop on a twin repository, and against the floor of SPEC §3.9's steps (the git
// commands its eight steps need per entry, run by one shell).
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { git, makeRepo, record, run, say, timed } from "./_measure.mjs";

/** A repository with `count` agent branches of one commit each (one fast-import), `withWorktrees` checked out. */
export function waveRepo(root, name, count, withWorktrees) {
  const dir = join(root, name);
  const primary = makeRepo(dir);
  const base = git(primary, "rev-parse", "HEAD");
  const when = Math.floor(Date.now() / 1000); // after the base, as an agent commits after it forked
  let script = "";
  for (let i = 0; i < count; i++) {
    const content = `agent ${i}\n`;
    const message = `agent ${i}`;
    script +=
      `commit refs/heads/worktree-agent-${i}\ncommitter Bench <bench@orchard.invalid> ${when} +0000\ndata ${message.length}\n${message}\n` +
      `from ${base}\nM 100644 inline agents/a${i}.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  }
  run(primary, "git", ["fast-import", "--quiet"], script);
  git(primary, "pack-refs", "--all"); // fast-import leaves a loose file per branch, which no repository kept by gc has
  const entries = [];
  for (let i = 0; i < count; i++) {
    const path = join(dir, "wt", `a${i}`);
    if (withWorktrees) git(primary, "worktree", "add", "-q", path, `worktree-agent-${i}`);
    entries.push({ agent_id: `a${i}`, worktree_path: path, branch: `worktree-agent-${i}`, expected_base: base });
  }
  return { dir, primary, entries };
}

const quote = (word) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * The floor: per entry, the git commands SPEC §3.9's steps need, in their order, as one shell runs
 * them (no Node process forks any of them): both refs (1), the deletion check (4), the merge base,
 * the patch identity and the merge preview (3, the proofs of §3.10), the target's and the worktree's
 * statuses (5, 6), the merge in two steps (6), the removal (7), the compare-and-swap delete (8).
 */
function floorScript(entries, withWorktrees) {
  return entries
    .map((e) => {
      const branch = quote(`refs/heads/${e.branch}`);
      return [
        `set -- $(git for-each-ref --format='%(objectname)' refs/heads/main ${branch}); t=$1; tip=$2`,
        `git diff --name-only -z --diff-filter=D --no-renames --no-ext-diff --no-textconv ${quote(e.expected_base)} "$tip" >/dev/null`,
        'git merge-base "$t" "$tip" >/dev/null',
        'git cherry "$t" "$tip" >/dev/null',
        'git merge-tree --write-tree --name-only -z --no-messages "$t" "$tip" >/dev/null',
        "git status --porcelain=v2 -z --branch --untracked-files=no >/dev/null",
        ...(withWorktrees ? [`git -C ${quote(e.worktree_path)} status --porcelain=v2 -z --branch --untracked-files=all --ignored=matching >/dev/null`] : []),
        `git merge -q --no-ff --no-commit -m ${quote(`merge ${e.branch}`)} "$tip" >/dev/null`,
        "git commit -q --no-edit --no-verify",
        ...(withWorktrees ? [`git worktree remove --force --force ${quote(e.worktree_path)}`] : []),
        `git update-ref -d ${branch} "$tip"`,
      ].join("\n");
    })
    .join("\n");
}

/** The entries cut into manifests of at most 1 MiB each, in order. */
export function chunks(entries) {
  const out = [[]];
  let bytes = 2;
  for (const e of entries) {
    const size = Buffer.byteLength(JSON.stringify(e)) + 1;
    if (bytes + size > 1024 * 1024 - 1024) (out.push([]), (bytes = 2));
    out[out.length - 1].push(e);
    bytes += size;
  }
  return out;
}

export function waveRows({ root, waves: WAVES, sample: WAVE_SAMPLE, removingIn, label }) {
  for (const w of WAVES) {
    const withWorktrees = w <= 1000;
    say(`wave of ${w} (${withWorktrees ? "one worktree each" : "branches only"}): building…`);
    const mine = waveRepo(root, `wave-${w}-orchard`, w, withWorktrees);
    const sample = Math.min(w, WAVE_SAMPLE);
    // the twins hold all W branches (each git reads a repository of W refs), their loops run the first `sample`
    const theirs = waveRepo(root, `wave-${w}-git`, w, withWorktrees);
    // a manifest is at most 1 MiB (SPEC v3 §4.2): a larger wave runs as consecutive waves, each in one
    const manifests = chunks(mine.entries).map((part, i) => {
      const file = join(mine.dir, `wave-${i}.json`);
      writeFileSync(file, JSON.stringify(part));
      return file;
    });
    const home = join(mine.dir, "home");
    say(`wave of ${w}: measuring (load ${loadavg()[0].toFixed(1)}; ${manifests.length} manifest(s))…`);
    const wave = removingIn(mine.primary, home);
    const calls = manifests.map((m) => wave("--json", "cleanup-wave", "--manifest", m, "--allow-live")); // each waits for its purge
    const sum = (key) => calls.reduce((total, c) => total + c[key], 0);
    const a = { wall: sum("wall"), cpu: sum("cpu") };
    const results = calls.flatMap((c) => JSON.parse(c.value).result.entries);
    const ok = results.filter((e) => e.status === "merged_removed").length;
    const drained = sum("settled");
    const b = timed(() => {
      for (const e of theirs.entries.slice(0, sample)) {
        spawnSync("git", ["merge", "-q", "--no-ff", "-m", `merge ${e.branch}`, e.branch], { cwd: theirs.primary, stdio: "ignore" });
        if (withWorktrees) spawnSync("git", ["worktree", "remove", e.worktree_path], { cwd: theirs.primary, stdio: "ignore" });
        spawnSync("git", ["branch", "-d", e.branch], { cwd: theirs.primary, stdio: "ignore" });
      }
    });
    const floorRepo = waveRepo(root, `wave-${w}-floor`, w, withWorktrees);
    const floor = timed(() => run(floorRepo.primary, "sh", ["-es"], floorScript(floorRepo.entries.slice(0, sample), withWorktrees)));
    const scale = w / sample;
    const gitAll = { wall: b.wall * scale, cpu: b.cpu * scale };
    const floorAll = { wall: floor.wall * scale, cpu: floor.cpu * scale };
    const note = `${ok}/${w} merged_removed${manifests.length > 1 ? ` in ${manifests.length} waves (manifests ≤ 1 MiB)` : ""}${sample < w ? `; git's loop ran ${sample} entries, scaled ×${scale}` : ""}; CPU: ${label}`;
    record("wave", w, w, [[a, gitAll]], note);
    if (withWorktrees) record("wave+", w, w, [[{ wall: a.wall + drained, cpu: a.cpu }, gitAll]], `until the trash is empty; CPU: ${label}`);
    record("wave-floor", w, w, [[floorAll, gitAll]], "the floor (the git commands of the steps, one shell) against git's loop");
    record("wave/floor", w, w, [[a, floorAll]], "Orchard against the floor");
    if (ok !== w) say(`  wave of ${w}: only ${ok} merged_removed: ${JSON.stringify(results.find((e) => e.status !== "merged_removed"))}`);
    rmSync(mine.dir, { recursive: true, force: true });
    rmSync(theirs.dir, { recursive: true, force: true });
    rmSync(floorRepo.dir, { recursive: true, force: true });
  }
}
