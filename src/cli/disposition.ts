// How a disposition reads on a terminal: its colour. The order a person deals with them in is
// core/hygiene/attention.ts (one definition, which the HTML report reads too).
import type { Style } from "./color.js";

export function dispositionStyle(d: string): Style[] {
  switch (d) {
    case "needs_salvage":
      return ["red", "bold"];
    case "unknown":
      return ["magenta", "bold"];
    case "reapable":
    case "reclaimable":
    case "missing":
    case "husk":
      return ["yellow"];
    case "idle":
      return ["cyan"];
    case "live":
      return ["green"];
    default:
      return [];
  }
}
