// Preloaded (NODE_OPTIONS=--require) into one node process by the remove rows' split (everyday.mjs):
// appends that process's own CPU (user + sys, all its threads, ms) to $BENCH_OWN_CPU_FILE at exit.
"use strict";
process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  require("node:fs").appendFileSync(process.env.BENCH_OWN_CPU_FILE, `${(user + system) / 1000}\n`);
});
