// Reading what fingerprints are made of (I/O), cheaply enough for `list`: one batched
// `cat-file` for the inputs of every head, the context templates read once, and the runtime
// probes run at most once per repo and config within RUNTIME_MEMO_MS (they are commands, so only
// when trusted, and only for the facts that ask for it).
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { readObjectIds } from "../../git/read.js";
import { runShell } from "../../git/spawn.js";
import type { Registry, WorktreeRow } from "../../registry/index.js";
import type { RepoContext } from "../shared/repo/repo.js";
import { isInside } from "../shared/context.js";
import { isTrusted } from "./trust.js";
import {
  assessDrift,
  bootstrapFingerprint,
  canonicalBootstrapConfig,
  contextFingerprint,
  contextVarsOf,
  renderTemplate,
  runtimeFingerprint,
  type ProbeOutput,
} from "./fingerprints.js";
import type { Facts } from "../shared/types.js";
import { readPlainText } from "../shared/files.js";

export interface FingerprintBasis {
  repo: RepoContext;
  trusted: boolean;
  bootstrapConfig: string;
  inputs: string[];
  /** `<commit>:<input path>` → object id, or null when absent at that commit. */
  objects: Map<string, string | null>;
  /** context target → template text, or null when the template cannot be read. */
  templates: [target: string, template: string | null][];
}

/** Where templates live: the primary's root (the common dir for a bare primary), like the config. */
export function configRoot(repo: RepoContext): string {
  return repo.bare ? repo.commonDir : repo.primary;
}

/** A template's text; null when missing or when it resolves outside the repository (a symlink out). */
export function readTemplate(repo: RepoContext, relative: string): string | null {
  const root = configRoot(repo);
  try {
    const real = realpathSync(join(root, relative));
    if (!isInside(realpathSync(root), real)) return null;
    return readPlainText(real, 1024 * 1024); // a FIFO or a device there: no template
  } catch {
    return null; // a missing template: the context cannot be rendered, which callers report
  }
}

export async function readFingerprintBasis(repo: RepoContext, registry: Registry, heads: readonly string[]): Promise<FingerprintBasis> {
  const inputs = repo.config.config.bootstrap?.inputs ?? [];
  const objects = await readInputObjects(repo, heads, inputs);
  const templates = Object.entries(repo.config.config.context?.files ?? {}).map(([target, template]): [string, string | null] => [
    target,
    readTemplate(repo, template),
  ]);
  return { repo, trusted: await isTrusted(repo, registry), bootstrapConfig: canonicalBootstrapConfig(repo.config), inputs, objects, templates };
}

export async function readInputObjects(repo: RepoContext, heads: readonly string[], inputs: readonly string[]): Promise<Map<string, string | null>> {
  const specs = [...new Set(heads)].flatMap((head) => inputs.map((path) => `${head}:${path}`));
  const ids = specs.length ? await readObjectIds(repo.primary, specs) : [];
  return new Map(specs.map((spec, i) => [spec, ids[i] ?? null]));
}

/** The bootstrap fingerprint of the current config with the inputs at `head` (one git process). */
export async function readBootstrapFingerprintAt(repo: RepoContext, head: string): Promise<string> {
  const inputs = repo.config.config.bootstrap?.inputs ?? [];
  const objects = await readInputObjects(repo, [head], inputs);
  return bootstrapFingerprint(
    canonicalBootstrapConfig(repo.config),
    inputs.map((path) => [path, objects.get(`${head}:${path}`) ?? null] as const),
  );
}

/** Fingerprints already computed from a basis: per head (bootstrap), and the one context without templates. */
const computed = new WeakMap<FingerprintBasis, { bootstrap: Map<string, string | null>; noTemplates?: string }>();
function memoOf(basis: FingerprintBasis): { bootstrap: Map<string, string | null>; noTemplates?: string } {
  let memo = computed.get(basis);
  if (!memo) computed.set(basis, (memo = { bootstrap: new Map() }));
  return memo;
}

/** The bootstrap fingerprint a worktree at `head` would get now (computed once per head: a fleet shares heads). */
export function currentBootstrap(basis: FingerprintBasis, head: string | null): string | null {
  if (head === null) return null;
  const memo = memoOf(basis).bootstrap;
  const known = memo.get(head);
  if (known !== undefined) return known;
  const inputs = basis.inputs.map((path) => [path, basis.objects.get(`${head}:${path}`) ?? null] as const);
  const fingerprint = inputs.some(([path]) => !basis.objects.has(`${head}:${path}`)) ? null : bootstrapFingerprint(basis.bootstrapConfig, inputs);
  memo.set(head, fingerprint);
  return fingerprint;
}

/** The rendered context files of a row; null when a template cannot be read. */
export function renderContext(templates: FingerprintBasis["templates"], row: Parameters<typeof contextVarsOf>[0]): [string, string][] | null {
  const vars = contextVarsOf(row);
  const rendered: [string, string][] = [];
  for (const [target, template] of templates) {
    if (template === null) return null;
    rendered.push([target, renderTemplate(template, vars)]);
  }
  return rendered;
}

export function currentContext(basis: FingerprintBasis, row: WorktreeRow): string | null {
  if (basis.templates.length === 0) return (memoOf(basis).noTemplates ??= contextFingerprint([])); // the same for every row
  const rendered = renderContext(basis.templates, row);
  return rendered === null ? null : contextFingerprint(rendered);
}

const RUNTIME_MEMO_MS = 30_000;
const PROBE_TIMEOUT_MS = 60_000;
const runtimeMemo = new Map<string, { at: number; value: Promise<string | null> }>();

/**
 * The runtime fingerprint now: the probes' outputs, run in the primary. Callers check trust.
 * Memoised per repo and config for a short while, so one command (or one burst of library calls)
 * runs each probe once; null when a probe could not run to completion.
 */
export function readRuntimeFingerprint(repo: RepoContext): Promise<string | null> {
  const probes = repo.config.config.runtime?.probe ?? [];
  if (probes.length === 0) return Promise.resolve(runtimeFingerprint([]));
  const key = `${repo.commonDir}\0${repo.config.hash ?? ""}`;
  const memo = runtimeMemo.get(key);
  if (memo && Date.now() - memo.at < RUNTIME_MEMO_MS) return memo.value;
  const value = runProbes(configRoot(repo), probes);
  runtimeMemo.set(key, { at: Date.now(), value });
  return value;
}

async function runProbes(cwd: string, probes: readonly string[]): Promise<string | null> {
  const outputs: ProbeOutput[] = [];
  for (const command of probes) {
    const r = await runShell(command, { cwd, timeoutMs: PROBE_TIMEOUT_MS }).catch(() => null); // could not start: unknown
    if (r === null || r.timedOut || r.exitCode === null) return null;
    outputs.push({ command, exitCode: r.exitCode, stdout: r.stdout });
  }
  return runtimeFingerprint(outputs);
}

/** The fingerprint facts of a managed worktree; runtime drift only when `full` and trusted. */
export async function readFingerprintFacts(basis: FingerprintBasis, row: WorktreeRow, head: string | null, full: boolean): Promise<Facts["fingerprints"]> {
  const recorded = { bootstrap: row.fpBootstrap, context: row.fpContext, runtime: row.fpRuntime };
  const current: { bootstrap: string | null; context: string | null; runtime?: string | null } = {
    bootstrap: currentBootstrap(basis, head),
    context: currentContext(basis, row),
  };
  if (full && basis.trusted && row.fpRuntime !== null) current.runtime = await readRuntimeFingerprint(basis.repo);
  return { ...recorded, drift: assessDrift(recorded, current) };
}
