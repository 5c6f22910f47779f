// The typed example of docs/library.md ("Results and reasons are typed"), compiled by `npm run
// typecheck`; test/types/docs-example.test.ts checks that the docs show exactly this code.
import type { Orchard } from "../../src/index.js";

export async function docsExample(orchard: Orchard): Promise<void> {
  // docs:start
  const r = await orchard.add({ branch: "feat/login", task: "#42", owner: "agent-7" });
  if (r.ok) {
    console.log(r.action, r.path); // "created" | "adopted" | "reused" | "recycled" | "planned"
  } else if (r.action === "refused") {
    for (const reason of r.reasons) {
      switch (reason.code) {
        case "live_owner":
          console.log("held by", reason.owner, "signals:", reason.signals?.length ?? 0);
          break;
        case "dirty":
          if ("tracked" in reason) console.log(reason.tracked, "changed,", reason.untracked, "untracked");
          break;
        default:
          console.log(reason.code, reason.message);
      }
    }
  } else {
    console.log(r.error.code, r.error.message); // "bootstrap_failed": the worktree is kept
  }
  // docs:end
}
