// Installs the pinned harness binaries once per run (into a cache outside the repository).
import { ensureCodex } from "../helpers/codex.js";
import { ensureOpencode } from "../helpers/opencode.js";

export default function setup(): void {
  ensureCodex();
  ensureOpencode();
}
