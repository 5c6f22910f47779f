// vitest globalSetup: builds the Scenario template once for the whole run (every test process
// copies it instead of building its own with nine git commands) and removes it at the end.
import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { buildTemplate } from "./template.js";

export default function setup(project: TestProject): () => void {
  const dir = buildTemplate();
  project.provide("scenarioTemplate", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
