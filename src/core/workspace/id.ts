// A workspace's id: the location of its registry, hashed (workspace.ts says why).
import { createHash } from "node:crypto";
import { join } from "node:path";

/** A PostgreSQL URL without what is secret or incidental: user, host, port, database and the options that pick a schema. */
function serverOf(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    for (const key of [...u.searchParams.keys()]) if (/password|ssl|timeout|application_name/i.test(key)) u.searchParams.delete(key);
    u.searchParams.sort();
    return `${u.username}@${u.hostname.toLowerCase()}:${u.port || "5432"}${u.pathname}?${u.searchParams.toString()}`;
  } catch {
    return url; // registryUrl checked its form; a URL the parser refuses is still one location
  }
}

/** The id of the workspace whose home (realpath) is `home` over the registry at `url` (null: `<home>/orchard.db`). */
export function workspaceId(home: string, registry: { url: string | null; host: string }): string {
  const location = registry.url === null ? `sqlite\0${join(home, "orchard.db")}` : `postgres\0${serverOf(registry.url)}\0${registry.host}`;
  return createHash("sha256").update(location, "utf8").digest("hex").slice(0, 16);
}
