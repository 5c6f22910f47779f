// The options of Orchard.open and what every method's options and results share (orchard.ts).
export interface OpenOptions {
  /** A path inside the repository (default: the current directory). */
  repo?: string;
  /** The workspace (default: ORCHARD_HOME or ~/.orchard). */
  home?: string;
  /** A fleet's shared PostgreSQL registry, `postgres://…` (default: ORCHARD_REGISTRY, else the workspace's SQLite file). */
  registry?: string;
  /**
   * When the registry cannot be reached: "fail" (the default) throws registry_unreachable; "local"
   * goes on from this host's git facts alone (status, list, reap-orphans) and says so in each result.
   */
  whenUnreachable?: "fail" | "local";
  /**
   * This process will make many calls (an MCP server, an agent's loop): it keeps a small `sh` of
   * its own for the git queries each call starts side by side, instead of forking itself for them
   * (a fork of a large process costs milliseconds a call). The shell ends with the process.
   */
  warm?: boolean;
}

/** Per-call override of the repository, as the MCP tools and `--repo` allow. */
export interface RepoOption {
  repo?: string;
}

/** What a result says when the registry was out of reach and this host's git facts alone answered. */
export interface RegistryUnreachable {
  registryUnreachable?: string;
}
