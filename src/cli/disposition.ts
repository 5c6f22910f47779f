// How a disposition reads on a terminal: its colour, and the order a person deals with them in —
// work at risk first (needs_salvage, unknown), then what cleanup converges (reapable, reclaimable,
// missing, husk), then what is kept (idle, live).
import type { Disposition } from "../core/hygiene/index.js";
import type { Style } from "./color.js";

export const ATTENTION_ORDER: readonly Disposition[] = ["needs_salvage", "unknown", "reapable", "reclaimable", "missing", "husk", "idle", "live"];

export function attentionRank(d: string): number {
  const i = ATTENTION_ORDER.indexOf(d as Disposition);
  return i < 0 ? ATTENTION_ORDER.length : i;
}

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
