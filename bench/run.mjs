// `npm run bench`: runs every benchmark script in this folder (after `npm run build`), one after
// another, so each measures on a quiet machine. Each script prints its own table of
// measurement vs baseline with ratios. Pass names to run a subset: `npm run bench -- hygiene`.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && !f.startsWith("_"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));
let failed = 0;
for (const script of scripts) {
  process.stdout.write(`\n## ${script}\n`);
  const r = spawnSync(process.execPath, [join(here, script)], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
