#!/usr/bin/env node
// The layering of src/, checked from the imports themselves (part of `npm run lint`):
// 1. no import circles between files (static, type-only and dynamic imports all count);
// 2. layers point down: cli (which starts the mcp server and the demo) → mcp, demo, gsd → core →
//    git, registry; git and registry never import
//    each other or anything above them;
// 3. a capability folder of src/core (every folder but shared/) is entered only through its
//    index.ts from outside, and the capability folders import each other without a circle.
// Prints every violation and exits 1 when there is one. `--root <dir>` checks another tree.
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const rootFlag = process.argv.indexOf("--root");
const ROOT = rootFlag > 0 ? resolve(process.argv[rootFlag + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "src");
const SHARED = "shared";
const LAYERS = { cli: 4, mcp: 3, demo: 3, gsd: 3, core: 2, git: 1, registry: 1 };

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** Relative specifiers of every import/export-from and dynamic import() of a file. */
function importsOf(file) {
  const text = readFileSync(file, "utf8");
  const specs = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm)) specs.push(m[1]);
  return specs.map((spec) => resolve(dirname(file), spec.replace(/\.js$/, ".ts"))).filter((target) => target.startsWith(SRC + sep));
}

const rel = (file) => relative(ROOT, file);
const parts = (file) => relative(SRC, file).split(sep);
const layerOf = (file) => (parts(file).length > 1 ? parts(file)[0] : null);
/** The capability folder of a file under src/core, or null (core's loose files, shared/). */
const capabilityOf = (file) => {
  const p = parts(file);
  return p[0] === "core" && p.length > 2 && p[1] !== SHARED ? p[1] : null;
};

const files = walk(SRC);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const problems = [];

for (const [file, targets] of graph) {
  for (const target of targets) {
    if (!existsSync(target)) continue; // the compiler reports missing modules
    const [from, to] = [layerOf(file), layerOf(target)];
    if (from && to && from !== to && (LAYERS[to] ?? 0) >= (LAYERS[from] ?? 0))
      problems.push(`${rel(file)} imports ${rel(target)}: ${from}/ may not import ${to}/ (imports point down)`);
    const cap = capabilityOf(target);
    if (cap && capabilityOf(file) !== cap && !target.endsWith(`${sep}index.ts`) && !file.endsWith(".test.ts"))
      problems.push(`${rel(file)} imports ${rel(target)}: enter core/${cap}/ through its index.ts`);
  }
}

/** Every strongly connected component with more than one node (or a self-loop): the circles. */
function circles(nodes, edges) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const visit = (node) => {
    info.set(node, { index, low: index, onStack: true });
    index++;
    stack.push(node);
    for (const next of edges(node)) {
      if (!info.has(next)) {
        visit(next);
        info.get(node).low = Math.min(info.get(node).low, info.get(next).low);
      } else if (info.get(next).onStack) info.get(node).low = Math.min(info.get(node).low, info.get(next).index);
    }
    if (info.get(node).low === info.get(node).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        info.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges(node).includes(node)) found.push(component.sort());
    }
  };
  for (const node of nodes) if (!info.has(node)) visit(node);
  return found;
}

for (const component of circles(files, (file) => (graph.get(file) ?? []).filter((t) => graph.has(t))))
  problems.push(`import circle: ${component.map(rel).join(" ↔ ")}`);

const capabilityEdges = new Map();
for (const [file, targets] of graph) {
  const from = capabilityOf(file);
  if (!from || file.endsWith(".test.ts")) continue;
  for (const target of targets) {
    const to = capabilityOf(target);
    if (to && to !== from) capabilityEdges.set(from, [...new Set([...(capabilityEdges.get(from) ?? []), to])]);
  }
}
for (const component of circles([...capabilityEdges.keys()].sort(), (cap) => capabilityEdges.get(cap) ?? []))
  problems.push(`capability circle: core/${component.join(" ↔ core/")}`);

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`check-imports: ${problems.length} problem(s) in ${files.length} files`);
  process.exit(1);
}
console.log(`check-imports: ${files.length} files, no circle, layers and capability doors kept`);
