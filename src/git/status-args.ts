/** The arguments of readStatus's `git status` (read.ts), which the early batch asks too (early.ts). */
export function statusArgs(ignored: boolean): string[] {
  return ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", ...(ignored ? ["--ignored=matching"] : [])];
}
