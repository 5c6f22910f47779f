// Loaded with `node --import` into a CLI under test (ORCHARD_FS_TRACE=<dir>): every path under <dir>
// that the process looks at through node:fs's synchronous calls is written to stderr as
// `[fs trace] <call> <path>`, so a test can count what a command reads in-process (a file read is no
// git process: ORCHARD_TRACE does not see it). Counts, never times.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const under = process.env.ORCHARD_FS_TRACE;
if (under) {
  let inside = false;
  for (const name of ["openSync", "readFileSync", "lstatSync", "statSync", "readdirSync", "readlinkSync", "existsSync", "realpathSync", "opendirSync"]) {
    const original = fs[name];
    if (typeof original !== "function") continue;
    const traced = function (path, ...rest) {
      if (!inside && typeof path === "string" && path.startsWith(under)) {
        inside = true;
        try {
          process.stderr.write(`[fs trace] ${name} ${path}\n`);
        } finally {
          inside = false;
        }
      }
      return original.call(this, path, ...rest);
    };
    if (original.native) traced.native = original.native; // realpathSync.native
    fs[name] = traced;
  }
  syncBuiltinESMExports();
}
