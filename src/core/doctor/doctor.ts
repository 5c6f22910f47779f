// `orchard doctor` (SPEC v5 §3.16): one line per check — node, the SQLite driver, git, the
// registry (which, where, reachable), the workspace id, trust of the current repository, the hooks
// installed for Claude Code, Codex and OpenCode, shell integration, free space against
// `disk.minFree` — each ✔ or the command that fixes it. It reads and changes nothing else: the
// registry is opened as every command opens it, files are read bounded (readPlainFile).
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { readGitVersion } from "../../git/read.js";
import { chooseSqliteDriver } from "../../registry/index.js";
import { Orchard } from "../orchard.js";
import type { OpenOptions } from "../orchard-options.js";
import { isTrusted } from "../shared/program-policy.js";
import { readPlainFile } from "../shared/files.js";
import { assessFloor, formatBytes } from "../hygiene/index.js";
import { hookChecks } from "./hooks.js";
import type { DoctorCheck } from "./check.js";

export type { DoctorCheck } from "./check.js";

export interface DoctorResult {
  /** true when nothing needs fixing. */
  ok: boolean;
  checks: DoctorCheck[];
}

const check = (name: string, ok: boolean, detail: string, fix: string | null = null): DoctorCheck => ({ name, ok, detail, fix: ok ? null : fix });

const MIN_GIT = [2, 38];

function gitCheck(version: string | null): DoctorCheck {
  if (version === null) return check("git", false, "git does not run", "install git 2.38 or later (apt-get install git)");
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const ok = major > (MIN_GIT[0] as number) || (major === MIN_GIT[0] && minor >= (MIN_GIT[1] as number));
  return check("git", ok, `git ${version}${ok ? "" : " (2.38 or later needed)"}`, "install git 2.38 or later");
}

function nodeCheck(): DoctorCheck {
  const major = Number(process.versions.node.split(".")[0]);
  return check("node", major >= 20, `Node ${process.versions.node}`, "install Node 20 or later (Node 24 LTS recommended)");
}

/** The shell's rc file and whether it evals `orchard shell-init`. */
function shellCheck(): DoctorCheck {
  const shell = basename(process.env.SHELL ?? "");
  const rc: Record<string, [string, string]> = {
    bash: [join(homedir(), ".bashrc"), `echo 'eval "$(orchard shell-init bash)"' >> ~/.bashrc`],
    zsh: [join(process.env.ZDOTDIR || homedir(), ".zshrc"), `echo 'eval "$(orchard shell-init zsh)"' >> ~/.zshrc`],
    fish: [
      join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "fish", "config.fish"),
      "echo 'orchard shell-init fish | source' >> ~/.config/fish/config.fish",
    ],
  };
  const known = rc[shell];
  if (!known) return check("shell", true, `${shell || "no $SHELL"}: no shell function for it (orchard path prints where to cd)`);
  const text = readPlainFile(known[0], 1_048_576)?.toString("utf8") ?? "";
  const loaded = text.includes("orchard shell-init");
  return check("shell", loaded, loaded ? `${shell}: orchard cd loaded from ${known[0]}` : `${shell}: orchard cd is not loaded (${known[0]})`, known[1]);
}

export async function doctor(options: OpenOptions): Promise<DoctorResult> {
  const checks: DoctorCheck[] = [nodeCheck()];
  const cwd = options.repo ?? process.cwd();
  let orchard: Orchard | null = null;
  let openError: string | null = null;
  try {
    orchard = await Orchard.open({ ...options, whenUnreachable: "local" });
  } catch (error) {
    openError = error instanceof Error ? error.message : String(error);
  }
  const dialect = orchard?.unreachable === null ? orchard.registry.dialect : null;
  let driver = "not used (a PostgreSQL registry)";
  let driverOk = true;
  if (dialect !== "postgres")
    try {
      driver = chooseSqliteDriver();
    } catch (error) {
      driver = error instanceof Error ? error.message : String(error);
      driverOk = false;
    }
  checks.push(check("sqlite", driverOk, driver, "unset ORCHARD_SQLITE_DRIVER (or set it to node:sqlite or better-sqlite3)"));
  checks.push(gitCheck(await readGitVersion(cwd)));
  if (!orchard) {
    checks.push(check("registry", false, `cannot be opened: ${openError ?? "unknown"}`, "orchard registry migrate --help"));
    return finish(checks);
  }
  try {
    const where = orchard.unreachable === null ? orchard.registry.location : (options.registry ?? process.env.ORCHARD_REGISTRY ?? "");
    const which = orchard.unreachable === null ? (orchard.registry.dialect === "postgres" ? "PostgreSQL" : "SQLite") : "PostgreSQL";
    checks.push(
      orchard.unreachable === null
        ? check("registry", true, `${which} at ${where}, reachable`)
        : check("registry", false, `${which} at ${where}: ${orchard.unreachable}`, 'pg_isready -d "$ORCHARD_REGISTRY"'),
    );
    checks.push(check("workspace", true, `${orchard.workspace.id} (${orchard.workspace.home})`));
    let minFree: string | undefined;
    try {
      const ctx = await orchard.context();
      minFree = ctx.repo.config.config.disk?.minFree;
      const needsTrust = ctx.repo.config.hash !== null;
      const trusted = needsTrust && orchard.unreachable === null ? await isTrusted(ctx.repo, orchard.registry) : !needsTrust;
      checks.push(
        check(
          "trust",
          trusted,
          needsTrust
            ? `${ctx.repo.primary}: .orchard.json ${trusted ? "trusted" : "not trusted (its commands do not run)"}`
            : `${ctx.repo.primary}: no .orchard.json, nothing to trust`,
          `cd ${ctx.repo.primary} && orchard trust`,
        ),
      );
      checks.push(...hookChecks(ctx.repo.primary));
    } catch {
      checks.push(check("trust", true, `${cwd}: not in a git repository, nothing to trust`));
      checks.push(...hookChecks(null));
    }
    checks.push(shellCheck());
    const floor = assessFloor(orchard.workspace.home, minFree);
    checks.push(
      floor === null
        ? check("disk", true, "no disk.minFree set")
        : check(
            "disk",
            !floor.below,
            `${formatBytes(floor.free)} free, disk.minFree ${formatBytes(floor.floor)}`,
            `orchard cleanup run --until-free ${minFree ?? ""}`.trim(),
          ),
    );
  } finally {
    await orchard.close();
  }
  return finish(checks);
}

const finish = (checks: DoctorCheck[]): DoctorResult => ({ ok: checks.every((c) => c.ok), checks });
