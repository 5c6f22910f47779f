/** The arguments of readStatus's `git status` (read.ts), which the early batch asks too (early.ts). */
// never into a submodule: git runs its commands without Orchard's overrides (submodules.ts looks at them)
export function statusArgs(ignored: boolean): string[] {
  return ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--ignore-submodules=dirty", ...(ignored ? ["--ignored=matching"] : [])];
}
