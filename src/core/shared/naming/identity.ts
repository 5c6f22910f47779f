// Pure naming rules (SPEC §1): canonical remote keys, repo names, branch slugs, handles (tasks: task.ts).
import { createHash } from "node:crypto";

const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");
const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());
const stripLeadingZeros = (digits: string): string => digits.replace(/^0+(?=\d)/, "");

const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  ssh: "22",
  "git+ssh": "22",
  "ssh+git": "22",
  http: "80",
  https: "443",
  git: "9418",
  ftp: "21",
  ftps: "990",
};
const CASE_INSENSITIVE_HOSTS = new Set(["github.com", "gitlab.com", "bitbucket.org"]);
const VALID_HOST = /^(?:\[[0-9a-z:.%_-]+\]|[^\s/\\:@[\]~.-][^\s/\\:@[\]]*)$/;

/** Drops trailing whitespace, `/`, `\\` and `.git` until none is left. */
function stripTail(path: string): string {
  for (let t = path; ; path = t) {
    t = path.replace(/[\s/\\]+$/, "").replace(/\.git$/, "");
    if (t === path) return path;
  }
}

/** Local path → `//` collapsed, tail stripped, the root kept (idempotent). */
function normalizeLocal(path: string): string {
  const s = stripTail(path.replace(/\/{2,}/g, "/"));
  return s === "" && path.startsWith("/") ? "/" : s;
}

function remoteKey(hostRaw: string, port: string | undefined, scheme: string | undefined, pathRaw: string, input: string): string {
  const host = asciiLower(hostRaw);
  if (!VALID_HOST.test(host)) return `file:${normalizeLocal(input)}`;
  const p = port === undefined || port === "" ? "" : stripLeadingZeros(port);
  const keepPort = p !== "" && !(scheme !== undefined && DEFAULT_PORTS[scheme] === p);
  const cased = CASE_INSENSITIVE_HOSTS.has(host) ? asciiLower(pathRaw) : pathRaw;
  const path = stripTail(cased.replace(/\/{2,}/g, "/").replace(/^\//, ""));
  const key = `${host}${keepPort ? `:${p}` : ""}/${path}`;
  return key.startsWith("file:") ? `file:${normalizeLocal(input)}` : key; // host "file" with a port would read back as a path
}

/** Drops `user[:password]@` from an authority. */
const hostPort = (authority: string): string => authority.slice(authority.lastIndexOf("@") + 1);

/**
 * Canonical key of a remote URL: `<host>[:<port>]/<path>`, or `file:<path>` for local paths.
 * A schemeless `host[:port]/path` is read as that canonical form (so the function is idempotent);
 * relative local paths must therefore start with `.` (`./x`, `../x`), as git remotes usually do.
 */
export function canonicalRemote(url: string): string {
  const s = url.trim();
  const file = /^file:(.*)$/is.exec(s);
  if (file) {
    let rest = file[1] ?? "";
    if (rest.startsWith("//")) rest = rest.slice(2).replace(/^localhost(?=\/)/i, "");
    return `file:${normalizeLocal(rest)}`;
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(.*)$/is.exec(s);
  if (scheme) {
    const hp = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort(scheme[2] ?? ""));
    if (!hp) return `file:${normalizeLocal(s)}`;
    return remoteKey(hp[1] ?? "", hp[2], asciiLower(scheme[1] ?? ""), scheme[3] ?? "", s);
  }
  if (/^(?:[/\\.~]|[A-Za-z]:(?:[/\\]|$))/.test(s) || !/[/:]/.test(s)) return `file:${normalizeLocal(s)}`;
  const slash = s.indexOf("/");
  const head = slash < 0 ? s : s.slice(0, slash);
  const colon = firstColonOutsideBrackets(head);
  const authority = colon < 0 ? head : head.slice(0, colon);
  const host = hostPort(authority);
  if (colon < 0) return remoteKey(host, undefined, undefined, s.slice(head.length), s);
  // scp form `[user@]host:path`; without a user, `host:<digits>/…` is the canonical port form.
  const after = s.slice(colon + 1);
  const port = host === authority ? /^(\d+)(?=\/|$)/.exec(after) : null;
  if (port) return remoteKey(host, port[1], undefined, after.slice(port[0].length), s);
  return remoteKey(host, undefined, undefined, after, s);
}

function firstColonOutsideBrackets(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "[") depth++;
    else if (c === "]") depth = Math.max(0, depth - 1);
    else if (c === ":" && depth === 0) return i;
  }
  return -1;
}

export function localIdentity(commonDirRealpath: string): string {
  return `local:${commonDirRealpath}`;
}

const lastSegment = (path: string): string =>
  path
    .split(/[/\\]/)
    .filter((p) => p !== "")
    .pop() ?? "";
const reduceName = (name: string): string => name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "");

/** Last path segment of the canonical remote, else basename of the primary; `[A-Za-z0-9._-]`, never empty. */
export function repoNameFrom(source: { canonicalRemote: string | null; primaryPath: string }): string {
  const remote = source.canonicalRemote ?? "";
  const remotePath = remote.startsWith("file:") ? remote.slice(5) : remote.slice(remote.indexOf("/") + 1);
  return reduceName(lastSegment(remotePath)) || reduceName(lastSegment(source.primaryPath)) || "repo";
}

export function disambiguateRepoName(name: string, identity: string): string {
  return `${name}-${sha256Hex(identity).slice(0, 6)}`;
}

const SLUG_MAX = 80;
/** A kept-verbatim branch must not look like a hashed slug, or `x-<8hex>` could collide with `x/…`. */
const LOOKS_HASHED = /(?:^|-)(?:[0-9a-f]{8}|[0-9a-f]{16})$/;

/** The hash suffix lengths: 8 hex, or 16 when the 8-hex handle is held by another branch (SPEC §1 v2). */
export type HashLength = 8 | 16;

/** Branch → one safe directory name: `[A-Za-z0-9._-]`, not starting with `-`/`.`, ≤ 97 chars. */
export function slug(branch: string, hashLength: HashLength = 8): string {
  const reduced = branch
    .replace(/[^A-Za-z0-9._-]/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/[-.]+$/, "");
  if (reduced === branch && reduced !== "" && !LOOKS_HASHED.test(branch)) return branch;
  const hash = sha256Hex(branch).slice(0, hashLength);
  return reduced === "" ? hash : `${reduced}-${hash}`;
}

export function handleFor(repoName: string, branch: string, hashLength: HashLength = 8): string {
  return `${repoName}@${slug(branch, hashLength)}`;
}
