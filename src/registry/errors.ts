// The one error the registry throws: what failed, and what the user can do about it.

export type RegistryErrorCode = "registry_locked" | "registry_corrupt" | "registry_failed" | "registry_unreachable";

export class RegistryError extends Error {
  constructor(
    readonly code: RegistryErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "RegistryError";
  }
}
