// Next steps (SPEC v4 §2): what moves each reason on, as a command or an MCP tool call.
export { withNext } from "./attach.js";
export { nextStep, type Where } from "./next.js";
export { commandOf, toolCallOf, spell, type Step, type Surface } from "./step.js";
