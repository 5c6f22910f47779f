// `orchard add --task <T>` without a branch (SPEC v4 §3): the branch is derived from the task's
// canonical form (SPEC §1 task), so every spelling of one task gives one branch:
//   github.com/o/r#N, bitbucket.org/o/r#N, gitlab.com/g/p#N  →  <repo>-<N>     (the last path segment)
//   gitlab.com/g/p!N (a merge request)                       →  <repo>-mr-<N>
//   anything else (T-123, another URL's host/path)           →  the text itself: every run of
//       characters outside [a-z0-9._-] becomes `-`, runs of `.` become one, leading and trailing
//       `-` and `.` trimmed, a trailing `.lock` dropped, capped at 100 characters.
// Pure: the caller validates the result as any branch (check-ref-format) and refuses an empty one.
const FORGE = /^(?:github\.com|bitbucket\.org|gitlab\.com)\/(?:[^#!]*\/)?([^/#!]+)([#!])(\d+)$/;
const MAX = 100;

function slug(text: string): string {
  let s = text
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/-{2,}/g, "-");
  s = s.slice(0, MAX);
  for (let previous = ""; previous !== s;) {
    previous = s;
    s = s.replace(/^[-.]+|[-.]+$/g, "").replace(/\.lock$/, "");
  }
  return s;
}

/** The branch a canonical task names; "" when nothing of it can make a branch name. */
export function branchFromTask(canonical: string): string {
  const forge = FORGE.exec(canonical);
  if (forge) {
    const [, repo = "", kind, number = ""] = forge;
    return slug(`${repo}-${kind === "!" ? "mr-" : ""}${number}`);
  }
  return slug(canonical);
}
