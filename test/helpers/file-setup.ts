// vitest setupFiles: runs before every test file. The test files of a project share their worker
// processes (vitest.config.ts, `isolate: false`), so each file starts from the environment its
// worker started with, whatever the file before it set (makeProcessEnvHermetic, for one).
const key = Symbol.for("orchard.tests.workerEnv");
const holder = globalThis as { [key]?: Record<string, string | undefined> };
const started = (holder[key] ??= { ...process.env });
for (const name of Object.keys(process.env)) if (!(name in started)) delete process.env[name];
Object.assign(process.env, started);
