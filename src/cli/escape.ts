// Text from git, the registry or a user's files printed on a terminal: shown, never obeyed. One
// function for the CLI and the HTML report alike, in core/shared/input/escape.ts (which also refuses
// these characters in owner, task and branch).
export { escapeControl } from "../core/shared/input/escape.js";
