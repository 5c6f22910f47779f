// What a reason code or a disposition means and what to do next (`orchard explain`, `orchard_explain`).
export { explain, nearCodes, DISPOSITION_TEXT, type ExplainResult, type Explained } from "./explain.js";
