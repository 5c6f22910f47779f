// Lint: type-aware rules that catch what the compiler does not — unhandled promises, switches
// that miss a case of a union, and the layering (only src/git spawns, only src/registry opens a database).
import tseslint from "typescript-eslint";

const SPAWN = ["child_process", "node:child_process"].map((name) => ({ name, message: "only src/git spawns processes" }));
const SQLITE = [
  { name: "better-sqlite3", message: "only src/registry touches SQLite" },
  { name: "node:sqlite", message: "only src/registry touches SQLite" },
  { name: "pg", message: "only src/registry touches PostgreSQL" },
];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "bench/**", "scripts/**", "*.config.*"] },
  {
    files: ["src/**/*.ts", "test/**/*.ts"],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "no-empty": ["error", { allowEmptyCatch: false }],
    },
  },
  ...[
    { files: ["src/**/*.ts"], ignores: ["src/git/**", "src/registry/**"], banned: [...SPAWN, ...SQLITE] },
    { files: ["src/git/**/*.ts"], banned: SQLITE },
    { files: ["src/registry/**/*.ts"], banned: SPAWN },
  ].map(({ banned, ignores = [], ...scope }) => ({ ...scope, ignores: [...ignores, "src/**/*.test.ts"], rules: { "no-restricted-imports": ["error", { paths: banned }] } })),
);
