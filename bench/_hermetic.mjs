// Hermetic git for benchmarks, as the tests have it (test/helpers/env.ts): a private HOME, no user
// or system config, a fixed identity. Returns the bench's temp root. Node reads no extra CA bundle
// (NODE_EXTRA_CA_CERTS, which some machines set for every process): parsing one costs every node
// start alike, Orchard's and the `node -e 0` baselines' (≈ 30 ms a start on the machine of
// RESULTS' 2026-12-07 sections), which would hide Orchard's own cost in every ratio to a node start.
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function hermeticRoot(name, extra = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `orchard-bench-${name}-`)));
  writeFileSync(join(root, "gitconfig"), "");
  for (const key of Object.keys(process.env)) if (key.startsWith("GIT_") || key.startsWith("ORCHARD_")) delete process.env[key];
  delete process.env.NODE_EXTRA_CA_CERTS;
  Object.assign(process.env, {
    HOME: root,
    GIT_CONFIG_GLOBAL: join(root, "gitconfig"),
    GIT_CONFIG_NOSYSTEM: "1",
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Bench",
    GIT_AUTHOR_EMAIL: "bench@orchard.invalid",
    GIT_COMMITTER_NAME: "Bench",
    GIT_COMMITTER_EMAIL: "bench@orchard.invalid",
    ...extra,
  });
  return root;
}
