// Headless Chromium for the tests that render HTML, driven by playwright-core. The browser comes
// from the npm registry: the devDependency @sparticuz/chromium ships a brotli-packed Chromium for
// linux x64 with the NSS libraries it links and a font, unpacked here once per version into the
// temp dir. If that one cannot start, a system Chromium is tried. If none starts, this throws,
// naming why each one failed: the HTML tests fail loudly, they never skip.
import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { chromium, type Browser, type LaunchOptions } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox", // required as root; playwright passes a fresh --user-data-dir itself
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const SYSTEM_CHROMIUMS = ["/usr/bin/chromium", "chromium", "google-chrome"];

export interface LaunchedChromium {
  browser: Browser;
  /** Which browser started, e.g. "npm @sparticuz/chromium (/tmp/orchard-chromium-143.0.4-uid0/chromium)". */
  source: string;
}

export async function launchChromium(): Promise<LaunchedChromium> {
  const failures: string[] = [];
  const tried = new Set<string>();
  const candidates: { name: string; options: () => Promise<LaunchOptions> }[] = [
    { name: "npm @sparticuz/chromium", options: npmChromium },
    ...SYSTEM_CHROMIUMS.map((name) => ({ name, options: async () => ({ executablePath: onPath(name) }) })),
  ];
  for (const candidate of candidates) {
    let name = candidate.name;
    try {
      const options = await candidate.options();
      const path = options.executablePath ?? "";
      if (tried.has(path)) continue; // e.g. /usr/bin/chromium found again on PATH
      tried.add(path);
      name = path === candidate.name ? name : `${name} (${path})`;
      const browser = await chromium.launch({ args: CHROMIUM_ARGS, timeout: 30_000, ...options });
      if (failures.length > 0) process.stderr.write(`warning: the HTML tests use ${name}; before it:\n  ${failures.join("\n  ")}\n`);
      return { browser, source: name };
    } catch (error) {
      failures.push(`${name}: ${reason(error)}`);
    }
  }
  throw new Error(
    `no Chromium could start for the HTML tests:\n  ${failures.join("\n  ")}\n` +
      "run `npm install` (the devDependency @sparticuz/chromium ships one for linux x64; delete a broken unpacked copy, " +
      `${join(hostTmpdir(), "orchard-chromium-*")}, to unpack it again), or install chromium or google-chrome`,
  );
}

/** The machine's temp dir, not the run's scratch directory (test/helpers/scratch.ts): the unpacked Chromium is kept across runs. */
function hostTmpdir(): string {
  return process.env.ORCHARD_TEST_HOST_TMPDIR || tmpdir();
}

/** The registry's Chromium, unpacked (atomically, once per version and user) into the temp dir. */
async function npmChromium(): Promise<LaunchOptions> {
  if (process.platform !== "linux" || process.arch !== "x64") throw new Error(`it ships linux x64 only, this is ${process.platform} ${process.arch}`);
  const root = join(dirname(createRequire(import.meta.url).resolve("@sparticuz/chromium")), "..", "..");
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  const dir = join(hostTmpdir(), `orchard-chromium-${version}-uid${process.getuid?.() ?? ""}`);
  if (!existsSync(join(dir, UNPACKED))) await unpack(root, dir);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  // Its NSS and expat, so that it needs no system library beyond glibc.
  env.LD_LIBRARY_PATH = [join(dir, "al2023", "lib"), process.env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter);
  // Its own font and no system one: the renderer crashes on a machine without fonts.
  env.FONTCONFIG_FILE = join(dir, "fonts.conf");
  return { executablePath: join(dir, "chromium"), env };
}

const UNPACKED = "fonts.conf"; // written last, so its presence means the unpacked directory is complete

async function unpack(root: string, dir: string): Promise<void> {
  const { default: Sparticuz } = await import("@sparticuz/chromium");
  for (const name of readdirSync(dirname(dir))) {
    const old = join(dirname(dir), name); // left by a run killed while unpacking (about 200 MB each)
    if (name.startsWith(`${basename(dir)}.partial-`) && Date.now() - (statSync(old, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) > 3_600_000)
      rmSync(old, { recursive: true, force: true });
  }
  const staging = mkdtempSync(`${dir}.partial-`);
  try {
    // executablePath() unpacks into os.tmpdir(), which it reads synchronously before its first await.
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = staging;
    let unpacking: Promise<string>;
    try {
      unpacking = Sparticuz.executablePath(join(root, "bin"));
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    const executable = await unpacking;
    if (executable !== join(staging, "chromium")) throw new Error(`@sparticuz/chromium unpacked to ${executable}, not into ${staging}`);
    // The NSS and expat libraries it links; the package itself unpacks them only on AWS Lambda.
    mkdirSync(join(staging, "al2023"));
    execFileSync("tar", ["-x", "-C", join(staging, "al2023")], { input: brotliDecompressSync(readFileSync(join(root, "bin", "al2023.tar.br"))) });
    // fonts/fonts.conf names Lambda's paths; this one names the final directory.
    const xml = (path: string) => path.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const fonts = `<fontconfig><dir>${xml(join(dir, "fonts"))}</dir><cachedir>${xml(join(dir, "fonts-cache"))}</cachedir></fontconfig>\n`;
    writeFileSync(join(staging, UNPACKED), `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n${fonts}`);
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!existsSync(join(dir, UNPACKED))) throw error; // else a concurrent run finished first
      rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/** The first line of an error and, from a failed launch, the browser's own last stderr lines. */
function reason(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split("\n");
  const stderr = lines.flatMap((line) => /^\[pid=\d+\]\[err\] (.*)$/.exec(line)?.slice(1) ?? []).slice(-3);
  return [lines[0], ...stderr].join(" | ");
}

/** An absolute path, or a command name looked up on PATH; throws when it is not an executable. */
function onPath(name: string): string {
  const dirs = name.includes("/") ? [""] : (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const d of dirs) {
    const file = d === "" ? name : join(d, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      continue; // not here
    }
  }
  throw new Error(name.includes("/") ? "not installed" : "not on PATH");
}
