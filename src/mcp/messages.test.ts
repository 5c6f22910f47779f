// A tool's error names the tool's arguments, not the CLI's flags (issue 22 item 7).
import { describe, expect, it } from "vitest";
import { findTool } from "./tools.js";
import { withArgumentNames } from "./messages.js";

const tool = (name: string) =>
  findTool(name) ??
  (() => {
    throw new Error(name);
  })();

describe("withArgumentNames", () => {
  it("renames the flags that are the tool's arguments, camelCase included, and nothing else", () => {
    expect(withArgumentNames('--ttl "5" needs a unit (e.g. 30m, 2h)', tool("orchard_add"))).toBe('ttl "5" needs a unit (e.g. 30m, 2h)');
    expect(withArgumentNames('--pid must be a process id (1…2147483647), got "x"', tool("orchard_heartbeat"))).toBe(
      'pid must be a process id (1…2147483647), got "x"',
    );
    expect(withArgumentNames("--guard: not a duration", tool("orchard_reap_orphans"))).toBe("guard: not a duration");
    expect(withArgumentNames("--dry-run and --no-bootstrap", tool("orchard_add"))).toBe("dryRun and bootstrap: false");
    expect(withArgumentNames('--include: "x" is not one of …', tool("orchard_cleanup_plan"))).toBe('include: "x" is not one of …');
    // a flag that is not this tool's argument (or a longer flag that starts like one) stays
    expect(withArgumentNames("--ttl-max and --home", tool("orchard_add"))).toBe("--ttl-max and --home");
  });
});
