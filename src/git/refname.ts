// git's ref-name rules (`git check-ref-format <refname>`, git 2.39 refs.c check_refname_format),
// decided in-process: a branch name is checked without spawning git. refname.test.ts proves this
// equal to git's own answer over thousands of generated names.
const LOCK_SUFFIX = ".lock";

/** Whether git accepts `refname` as a full ref name (no --allow-onelevel, --refspec-pattern or --normalize). */
export function isValidRefName(refname: string): boolean {
  if (refname === "@") return false;
  const components = refname.split("/");
  if (components.length < 2) return false; // one level only: refused without --allow-onelevel
  for (const component of components) if (!isValidComponent(component)) return false;
  return !refname.endsWith(".");
}

function isValidComponent(component: string): boolean {
  if (component.length === 0) return false; // leading, trailing or doubled '/'
  if (component.startsWith(".")) return false;
  if (component.endsWith(LOCK_SUFFIX)) return false;
  let last = "";
  for (const ch of component) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return false;
    if (" ~^:?*[\\".includes(ch)) return false;
    if (ch === "." && last === ".") return false;
    if (ch === "{" && last === "@") return false;
    last = ch;
  }
  return true;
}
