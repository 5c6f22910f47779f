// The canonical task (SPEC §1 "task"): one unit of work written several ways is one task.
// Pure, with no imports, so the registry's re-canonicalising migration can be handed this very
// function by core at open time (registry never imports core).
//
// Forms, tried in this order:
// 1. short references, resolved against the repo's origin (its repo identity, §1) when it is on a
//    known forge: `#N`, `GH-N` (GitHub), `!N` (GitLab); `O/R#N` → github.com (gitlab.com when the
//    origin is there); `group/sub/proj#N` and `…!N` when the origin is on gitlab.com;
// 2. URLs: http(s), or scheme-less when the text starts with a host name (`github.com/…`,
//    `example.com/…`), so every canonical form reads back as itself. Forge references become
//    `github.com/o/r#N` (issues, pull requests and discussions share one number space) and
//    `gitlab.com/<group path>#N` (issues, work items) or `…!N` (merge requests); any other URL
//    loses scheme, user info, query, fragment, default port and trailing `/`, with its host
//    lowercased (and the owner/repo or group path on github.com, gitlab.com, bitbucket.org);
//    a "host" that is no host name (`https://GH-7`) keeps the scheme and is lowercased whole;
// 3. anything else: trimmed and lowercased (`ABC-123` = `abc-123`).
// Invariants (property-tested): idempotent; every spelling of one reference gives one value;
// different references never give the same value.

type Forge = { host: "github.com" | "gitlab.com"; path: string };

const FORGE_HOSTS = new Set(["github.com", "gitlab.com", "bitbucket.org"]);
const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: "80", https: "443" };
/** A host name a scheme-less text may start with: dotted with a letter TLD, localhost, IPv4, or [IPv6]. */
const HOST_NAME = /^(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}|localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;
const SEGMENT = "[A-Za-z0-9._-]+";

const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());
const number = (digits: string): string => digits.replace(/^0+(?=\d)/, "");

/** The forge of a repo identity (`github.com/o/r`, `gitlab.com/g/…/p`), or null. */
export function forgeOf(origin: string | null): Forge | null {
  const m = origin === null ? null : /^(github\.com|gitlab\.com)\/(.+)$/.exec(origin);
  if (!m) return null;
  const host = m[1] as Forge["host"];
  const path = m[2] as string;
  const segments = path.split("/");
  if (segments.some((s) => !new RegExp(`^${SEGMENT}$`).test(s))) return null;
  if (host === "github.com" ? segments.length !== 2 : segments.length < 2) return null;
  return { host, path: asciiLower(path) };
}

function shortReference(text: string, forge: Forge | null): string | null {
  let m = /^#(\d+)$/.exec(text) ?? (forge?.host === "github.com" ? /^gh-(\d+)$/i.exec(text) : null);
  if (m) return forge ? `${forge.host}/${forge.path}#${number(m[1] as string)}` : null;
  m = /^!(\d+)$/.exec(text);
  if (m) return forge?.host === "gitlab.com" ? `gitlab.com/${forge.path}!${number(m[1] as string)}` : null;
  m = /^([A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+)#(\d+)$/.exec(text);
  if (m) return `${forge?.host === "gitlab.com" ? "gitlab.com" : "github.com"}/${asciiLower(m[1] as string)}#${number(m[2] as string)}`;
  m = new RegExp(`^(${SEGMENT}(?:/${SEGMENT})+)([#!])(\\d+)$`).exec(text);
  if (m && forge?.host === "gitlab.com" && !isForgeHost((m[1] as string).split("/")[0] as string))
    return `gitlab.com/${asciiLower(m[1] as string)}${m[2] as string}${number(m[3] as string)}`;
  return null;
}

const isForgeHost = (host: string): boolean => FORGE_HOSTS.has(asciiLower(host).replace(/^www\./, ""));

interface Url {
  scheme: string | null;
  host: string;
  port: string;
  path: string;
  fragment: string | null;
}

function parseUrl(text: string): Url | null {
  const withScheme = /^(https?):\/\/([^/?#\s]*)((?:\/[^?#]*)?)(?:\?[^#]*)?(?:#(.*))?$/is.exec(text);
  const bare = withScheme ? null : /^([^/?#\s@]+)([^?#]*)(?:\?[^#]*)?(?:#(.*))?$/s.exec(text);
  const m = withScheme ?? bare;
  if (!m) return null;
  const authority = (withScheme ? m[2] : m[1]) as string;
  const hp = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority.slice(authority.lastIndexOf("@") + 1));
  if (!hp) return null;
  const host = hp[1] as string;
  if (bare && !HOST_NAME.test(host)) return null;
  if (bare && !/^$|^\//.test(m[2] as string)) return null;
  return {
    scheme: withScheme ? asciiLower(m[1] as string) : null,
    host: host.toLowerCase(),
    port: number(hp[2] ?? ""),
    path: (withScheme ? m[3] : m[2]) as string,
    fragment: (withScheme ? m[4] : m[3]) ?? null,
  };
}

/** github.com/gitlab.com references in a URL's path (and, scheme-less, the canonical `#N`/`!N` form). */
function forgeReference(host: string, url: Url): string | null {
  if (host === "github.com") {
    const m = /^\/([^/]+)\/([^/]+)\/(?:issues|pull|discussions)\/(\d+)(?:\/.*)?$/s.exec(url.path);
    if (m) return `github.com/${asciiLower(`${m[1] as string}/${m[2] as string}`)}#${number(m[3] as string)}`;
    const c = url.scheme === null ? /^\/([^/]+\/[^/]+)$/.exec(url.path) : null;
    if (c && url.fragment !== null && /^\d+$/.test(url.fragment)) return `github.com/${asciiLower(c[1] as string)}#${number(url.fragment)}`;
  }
  if (host === "gitlab.com") {
    const m = /^\/([^/]+(?:\/[^/]+)+?)\/-\/(issues|work_items|merge_requests)\/(\d+)(?:\/.*)?$/s.exec(url.path);
    if (m) return `gitlab.com/${asciiLower(m[1] as string)}${m[2] === "merge_requests" ? "!" : "#"}${number(m[3] as string)}`;
    if (url.scheme !== null) return null;
    const mr = /^\/([^/]+(?:\/[^/]+)+)!(\d+)$/.exec(url.path);
    if (mr && url.fragment === null) return `gitlab.com/${asciiLower(mr[1] as string)}!${number(mr[2] as string)}`;
    const c = /^\/([^/]+(?:\/[^/]+)+)$/.exec(url.path);
    if (c && url.fragment !== null && /^\d+$/.test(url.fragment)) return `gitlab.com/${asciiLower(c[1] as string)}#${number(url.fragment)}`;
  }
  return null;
}

/** Owner/repo (github.com, bitbucket.org) or the group path (gitlab.com) is case-insensitive. */
function foldForgePath(host: string, path: string): string {
  if (host === "gitlab.com") {
    const dash = path.indexOf("/-/");
    return dash < 0 ? asciiLower(path) : asciiLower(path.slice(0, dash)) + path.slice(dash);
  }
  const m = /^(\/[^/]*(?:\/[^/]*)?)(.*)$/s.exec(path);
  return m ? asciiLower(m[1] as string) + (m[2] as string) : path;
}

function canonicalUrl(url: Url): string {
  const forgeHost = url.host.replace(/^www\./, "");
  const dropPort = url.port === "" || (url.scheme !== null && DEFAULT_PORTS[url.scheme] === url.port);
  if (FORGE_HOSTS.has(forgeHost) && dropPort) {
    const ref = forgeReference(forgeHost, url);
    if (ref) return ref;
    return `${forgeHost}${foldForgePath(forgeHost, url.path).replace(/[\s/]+$/, "")}`;
  }
  const key = `${url.host}${dropPort ? "" : `:${url.port}`}${url.path.replace(/[\s/]+$/, "")}`;
  // a host that is no host name (`https://GH-7`) keeps its scheme, so the result never reads back
  // as a short reference or as plain text; it is folded whole, as plain text is
  return HOST_NAME.test(url.host) ? key : `${url.scheme ?? ""}://${key}`.toLowerCase();
}

/** The canonical form of a task; `origin` is the repo identity that `#N`, `GH-N`, `!N` resolve against. */
export function canonicalTask(task: string, origin: string | null = null): string {
  const text = task.trim();
  const short = shortReference(text, forgeOf(origin));
  if (short !== null) return short;
  const url = parseUrl(text);
  return url ? canonicalUrl(url) : text.toLowerCase();
}
