// Which ignored paths can be had again (SPEC §4.7): the default list, config `disposable`,
// `bootstrap.preserve` and the injected context files. Patterns follow gitignore's rules as far
// as they matter here: a trailing `/` matches directories only; a pattern without an inner `/`
// matches a name at any depth; one with an inner `/` is anchored at the worktree root; `*`, `?`,
// `[…]` and `**` glob. A path is disposable when it or one of its parent directories matches.
// Negation (`!`) is not supported: `disposable` only ever adds (SPEC §6). Pure.
export const DEFAULT_DISPOSABLE = [
  "node_modules/",
  ".venv/",
  "venv/",
  "__pycache__/",
  "*.pyc",
  "target/",
  "dist/",
  "build/",
  ".next/",
  ".turbo/",
  ".cache/",
  "coverage/",
  ".gradle/",
  ".DS_Store",
] as const;

interface Rule {
  regex: RegExp;
  dirOnly: boolean;
}

const escape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*" && glob[i + 1] === "*") {
      const atStart = i === 0 || glob[i - 1] === "/";
      if (atStart && glob[i + 2] === "/") {
        out += "(?:.*/)?";
        i += 2;
      } else {
        out += ".*";
        i += 1;
      }
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "\\" && i + 1 < glob.length) out += escape(glob[++i] as string);
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        out += `[${body}]`;
        i = end;
      }
    } else out += escape(c);
  }
  return out;
}

function compile(pattern: string): Rule | null {
  let p = pattern.trim();
  if (p === "" || p.startsWith("#") || p.startsWith("!")) return null;
  const dirOnly = p.endsWith("/");
  p = p.replace(/\/+$/, "");
  const anchored = p.includes("/");
  p = p.replace(/^\/+/, "");
  if (p === "") return null;
  const body = globToRegex(p);
  try {
    return { regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`, "s"), dirOnly };
  } catch {
    return null; // a malformed character class: matches nothing rather than everything
  }
}

/** A literal path (a context file) as an anchored pattern. */
export function literalPattern(path: string): string {
  return `/${path.replace(/^\/+/, "").replace(/[*?[\\]/g, "\\$&")}`;
}

export type DisposableMatcher = (path: string, isDirectory: boolean) => boolean;

/** A matcher over the default list plus `extra` patterns. */
export function disposableMatcher(extra: readonly string[]): DisposableMatcher {
  const rules = [...DEFAULT_DISPOSABLE, ...extra].map(compile).filter((r): r is Rule => r !== null);
  return (path, isDirectory) => {
    const parts = path.replace(/\/+$/, "").split("/");
    for (let n = 1; n <= parts.length; n++) {
      const prefix = parts.slice(0, n).join("/");
      const dir = n < parts.length || isDirectory;
      if (rules.some((r) => (dir || !r.dirOnly) && r.regex.test(prefix))) return true;
    }
    return false;
  };
}
