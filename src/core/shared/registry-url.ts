// Which registry a command names: only a PostgreSQL URL names a fleet's shared registry.
import { usageError } from "./errors.js";

/** A registry URL as given, checked (invalid_registry, exit 2); null when none is given. `hint` ends the error. */
export function registryUrl(url: string | undefined, hint = "without one, <home>/orchard.db is used"): string | null {
  if (url === undefined || url === "") return null;
  if (!/^postgres(ql)?:\/\/./.test(url))
    throw usageError("invalid_registry", `the registry must be a postgres:// URL (got ${JSON.stringify(url.slice(0, 80))}); ${hint}`);
  return url;
}
