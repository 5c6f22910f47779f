// Type-level tests of the library (issue 23 item 4), checked by `npm run typecheck`: each misuse
// below must NOT compile (`@ts-expect-error` fails the typecheck when the line compiles), and the
// closed sets are the very tuples the CLI validates with (src/core/shared/input/inputs.ts).
import { Orchard, OrchardError, type Policy, type Outcome, type ReasonCode } from "../../src/index.js";
import { POLICIES, OUTCOMES, MERGE_MODES } from "../../src/core/shared/input/inputs.js";

export async function misuse(orchard: Orchard): Promise<void> {
  // @ts-expect-error a policy the CLI refuses does not compile
  await orchard.add({ branch: "b", policy: "nope" });
  // @ts-expect-error the CLI's --no-bootstrap is `bootstrap: false`: one spelling
  await orchard.add({ branch: "b", noBootstrap: true });
  // @ts-expect-error an outcome the CLI refuses does not compile
  await orchard.release({ target: "b", outcome: "finished" });
  // @ts-expect-error a merge proof reap-orphans does not know does not compile
  await orchard.reapOrphans({ merged: "squash" });
  // @ts-expect-error status needs its target
  await orchard.status({});

  const error = await orchard.add({ branch: "b" }).catch((e: unknown) => e);
  if (error instanceof OrchardError) {
    const code = error.code;
    // @ts-expect-error OrchardError.code is a closed union, not string
    const wrong: typeof code = "no_such_code";
    void wrong;
  }
  // @ts-expect-error reason codes are a closed union
  const reason: ReasonCode = "no_such_reason";
  void reason;
}

// what compiles: every value of the tuples, and the option spellings the CLI documents
export async function use(orchard: Orchard): Promise<void> {
  for (const policy of POLICIES) await orchard.add({ branch: "b", policy, bootstrap: false, dryRun: true });
  for (const outcome of OUTCOMES) await orchard.release({ target: "b", outcome });
  for (const merged of MERGE_MODES) await orchard.reapOrphans({ merged, dryRun: true });
  const p: Policy = "exclusive-task";
  const o: Outcome = "abandoned";
  void [p, o];
}
