// A fleet's registry out of reach (SPEC §5): the connection cut mid-transaction by the server (an
// admin's pg_terminate_backend, never a stop of the shared server) and a server that is not there.
// Either way the call fails with RegistryError registry_unreachable, promptly, with nothing of the
// cut transaction left in the database and no password in the message.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Registry, RegistryError } from "../../src/registry/index.js";
import { CONNECT_TIMEOUT_MS } from "../../src/registry/postgres.js";
import { cutLockWaiters, pgAvailable, waitForLockWaiter } from "../helpers/postgres.js";
import { BACKENDS, HOOKS, REPO, worktreeRow, type FreshRegistry } from "../helpers/registry-backends.js";

const postgres = BACKENDS.find((b) => b.name === "postgres")!;

describe.skipIf(!pgAvailable())("PostgreSQL registry faults", () => {
  let fresh: FreshRegistry;
  let registry: Registry;
  const count = async (table: string): Promise<number> => Number((await fresh.raw(`SELECT count(*) AS n FROM ${table}`))[0]?.n);
  const event = { kind: "created", repo: REPO.identity, handle: "cut", task: "t", owner: null, data: {} } as const;

  beforeEach(async () => {
    fresh = await postgres.fresh();
    registry = await fresh.open();
    await registry.repos.save(REPO);
  });
  afterEach(() => fresh.cleanup());

  it("a connection cut between two statements of a transaction: registry_unreachable, nothing written", async () => {
    let ended = 0;
    const cut = registry.write(async () => {
      await registry.worktrees.insert(worktreeRow("cut"));
      ended = await fresh.schema!.cut("worktrees");
      await registry.events.append(event);
    });
    await expect(cut).rejects.toBeInstanceOf(RegistryError);
    await expect(cut).rejects.toMatchObject({ code: "registry_unreachable", message: expect.stringContaining("unreachable") });
    expect(ended).toBe(1);
    expect(await count("worktrees")).toBe(0);
    expect(await count("events")).toBe(0);
    // the registry stays unusable, saying so promptly, and still closes
    await expect(registry.worktrees.current()).rejects.toMatchObject({ code: "registry_unreachable" });
    await expect(registry.write(() => registry.events.append(event))).rejects.toMatchObject({ code: "registry_unreachable" });
    await registry.close();
    expect(await count("events")).toBe(0);
  });

  it("a connection cut while a statement waits for a lock: registry_unreachable, nothing written", async () => {
    const holder = await fresh.open();
    const key = `task:${Math.random().toString(36).slice(2)}`;
    let locked!: () => void;
    const holding = new Promise<void>((done) => (locked = done));
    let leave!: () => void;
    const gate = new Promise<void>((done) => (leave = done));
    const held = holder.write(() => (locked(), gate), { lock: key });
    await holding;
    try {
      const waiting = registry.write(() => registry.events.append(event), { lock: key }).catch((error: unknown) => error);
      await waitForLockWaiter(key);
      expect(await cutLockWaiters(key)).toBe(1);
      expect(await waiting).toMatchObject({ name: "RegistryError", code: "registry_unreachable" });
      await expect(registry.events.count(null, "created")).rejects.toMatchObject({ code: "registry_unreachable" });
    } finally {
      leave();
    }
    await held;
    expect(await count("events")).toBe(0);
    await holder.events.append(event);
    expect(await count("events")).toBe(1);
  });

  it.each([
    ["in the userinfo", "postgres://orchard:s3cret-pw@127.0.0.1:1/fleet"],
    ["as a parameter", "postgres://orchard@127.0.0.1:1/fleet?password=s3cret-pw"],
  ])("a server that is not there (password %s): registry_unreachable within the connect timeout, password hidden", async (_, url) => {
    const started = Date.now();
    const error = await Registry.open({ ...fresh.target, url }, HOOKS).then(
      (opened) => opened.close(),
      (failure: unknown) => failure,
    );
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({ code: "registry_unreachable", message: expect.stringContaining("127.0.0.1:1") });
    expect((error as Error).message).not.toContain("s3cret-pw");
    expect(elapsed).toBeLessThan(CONNECT_TIMEOUT_MS);
  });
});
