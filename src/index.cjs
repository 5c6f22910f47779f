// The `require` entry of the package (package.json `exports`). Orchard is an ES module; Node
// 20.19+ and 22.12+ load it through require() (it has no top-level await), so this file hands the
// same module to CommonJS. An older Node cannot: the error says so at once and names import().
"use strict";
try {
  module.exports = require("./index.js");
} catch (error) {
  if (error && (error.code === "ERR_REQUIRE_ESM" || error.code === "ERR_REQUIRE_ASYNC_MODULE"))
    throw new Error(
      `orchard-worktrees is an ES module and this Node (${process.version}) cannot require() it: ` +
        'use `const { Orchard } = await import("orchard-worktrees")`, or Node 20.19 or newer',
      { cause: error },
    );
  throw error;
}
