// The text of Orchard's OpenCode plugin (SPEC v5 §3.15): it registers OpenCode's "worktree"
// workspace adapter (`experimental_workspace.register`, @opencode-ai/plugin 1.18.x) backed by
// Orchard — `configure` asks `orchard add --dry-run` for the handle's path, `create` is `orchard
// add` leased to the OpenCode server process (owner `opencode:<workspace id>`), `remove` releases and
// then `orchard remove`s it (refused: the worktree stays, and says why on stderr; OpenCode forgets
// it even so, hygiene shows it), `target` is local. Heartbeat on `session.*` events (at most once a
// minute), release on `session.deleted` of a session that ran in it. The adapter's `env` argument
// (it carries OPENCODE_AUTH_CONTENT) is never read, logged, stored or passed on: orchard runs with
// the server's own environment. Plain ESM without dependencies (OpenCode runs it under Bun).

/** The first line of every plugin Orchard writes: how install and uninstall know the file is Orchard's. */
export const OPENCODE_PLUGIN_MARKER = "// orchard: OpenCode's worktree adapter, written by `orchard opencode install`";

const BODY = String.raw`
import { execFile } from "node:child_process";

const HEARTBEAT_MS = 60_000;

/** Runs orchard with --json in the project's directory; resolves its JSON result (a refusal too). */
function orchard(args, cwd) {
  const [file, ...pre] = ORCHARD;
  return new Promise((resolve, reject) => {
    execFile(file, [...pre, "--json", ...args], { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      let result = null;
      try {
        result = JSON.parse(stdout);
      } catch {
        result = null; // no JSON: the error below says what orchard said instead
      }
      if (result === null) reject(new Error("orchard " + args[0] + " failed: " + String(stderr || error).trim()));
      else resolve(result);
    });
  });
}

const reasonsOf = (result) => (result.reasons ?? []).map((r) => r.code + " (" + r.message + ")").join("; ") || (result.error?.message ?? "refused");
const ownerOf = (id) => "opencode:" + id;
// OpenCode's own branch shape: a worktree Orchard makes is Orchard's (held by the lease below), whatever its branch says
const branchOf = (config) => config.branch ?? "opencode/" + String(config.name).replace(/[^A-Za-z0-9._-]+/g, "-");

export const OrchardWorktreePlugin = async ({ experimental_workspace, worktree, directory }) => {
  const repo = worktree || directory;
  const held = new Map(); // workspace id -> the path of the worktree this server holds for it
  let lastBeat = 0;
  const quietly = (promise, what) =>
    promise.catch((error) => console.error("orchard: " + what + ": " + (error instanceof Error ? error.message : String(error))));

  experimental_workspace.register("worktree", {
    name: "Worktree (Orchard)",
    description: "A git worktree made, leased and removed by Orchard: nothing with work in it is deleted",
    async configure(config) {
      const branch = branchOf(config);
      const planned = await orchard(["add", branch, "--dry-run"], repo);
      if (!planned.ok) throw new Error("orchard will not make a worktree for " + branch + ": " + reasonsOf(planned));
      return { ...config, branch, directory: planned.path };
    },
    async create(config) {
      const added = await orchard(["add", config.branch, "--owner", ownerOf(config.id), "--pid", String(process.pid)], repo);
      if (!added.ok) throw new Error("orchard did not make a worktree for " + config.branch + ": " + reasonsOf(added));
      if (added.path !== config.directory) throw new Error("orchard made " + added.path + ", not " + config.directory);
      held.set(config.id, added.path);
    },
    async remove(config) {
      held.delete(config.id);
      if (!config.directory) return;
      await quietly(orchard(["release", config.directory, "--owner", ownerOf(config.id)], repo), "release " + config.directory);
      const removed = await orchard(["remove", config.directory], repo);
      if (!removed.ok) console.error("orchard: kept " + config.directory + ": " + reasonsOf(removed) + " (orchard hygiene shows it)");
    },
    target(config) {
      return { type: "local", directory: config.directory };
    },
  });

  return {
    async event({ event }) {
      if (!event.type.startsWith("session.")) return;
      if (event.type === "session.deleted") {
        const dir = event.properties?.info?.directory;
        for (const [id, path] of held)
          if (path === dir) {
            held.delete(id);
            await quietly(orchard(["release", path, "--owner", ownerOf(id)], repo), "release " + path);
          }
        return;
      }
      if (Date.now() - lastBeat < HEARTBEAT_MS) return;
      lastBeat = Date.now();
      for (const [id, path] of held)
        await quietly(orchard(["heartbeat", path, "--owner", ownerOf(id), "--pid", String(process.pid)], repo), "heartbeat " + path);
    },
  };
};

export default OrchardWorktreePlugin;
`;

/** The plugin's text: `argv` is how it runs orchard (program first, then arguments before the subcommand). */
export function opencodePluginText(argv: readonly string[]): string {
  return `${OPENCODE_PLUGIN_MARKER}
// OpenCode's "worktree" workspace adapter backed by Orchard: create is \`orchard add\` leased to the OpenCode
// server, remove is \`orchard remove\` (work is never deleted). \`orchard opencode uninstall\` removes this file.
// The adapter's env argument is never read, logged or stored.
const ORCHARD = ${JSON.stringify(argv)};
${BODY}`;
}
