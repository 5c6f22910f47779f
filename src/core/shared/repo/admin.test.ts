import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { readAdminActivity, readAdminDirs, readAdminWorktreePath } from "./admin.js";
import { readPlainFile } from "../../../git/input/plain-file.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function commonDir(): string {
  const root = mkdtempSync(join(tmpdir(), "orchard-admin-"));
  roots.push(root);
  return root;
}

function admin(common: string, id: string, gitdir: string | null): string {
  const dir = join(common, "worktrees", id);
  mkdirSync(dir, { recursive: true });
  if (gitdir !== null) writeFileSync(join(dir, "gitdir"), gitdir);
  return dir;
}

describe("the worktree path an admin dir records", () => {
  it("is the directory of its gitdir record as resolve() reads it, whatever the record's form", () => {
    const common = commonDir();
    const records = [
      "/srv/wt/a/.git\n",
      "/srv/wt/b/.git",
      "/srv//wt/c/.git\n",
      "/srv/wt/./d/.git\n",
      "/srv/x/../wt/e/.git\n",
      "../../../wt/f/.git\n",
      "/.git\n",
      "/srv/wt/g/\n",
      "/srv/wt/..h/.git\r\n",
    ];
    const dirs = records.map((record, i) => admin(common, `w${i}`, record));
    dirs.forEach((dir, i) => {
      const record = (records[i] as string).replace(/\r?\n$/, "");
      expect(readAdminWorktreePath(dir), record).toBe(dirname(resolve(dir, record)));
      expect(readAdminWorktreePath(`${dir}/`), record).toBe(dirname(resolve(dir, record)));
    });
    admin(common, "empty", "");
    admin(common, "none", null);
    const map = readAdminDirs(common);
    expect(map.size).toBe(records.length);
    dirs.forEach((dir) => expect(map.get(readAdminWorktreePath(dir) as string)).toBe(dir));
  });

  it("takes the newest of HEAD, index and HEAD's reflog, and none when there is none", () => {
    const dir = admin(commonDir(), "w", "/srv/wt/.git\n");
    expect(readAdminActivity(dir)).toBeNull();
    writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
    utimesSync(join(dir, "HEAD"), 1000, 1000);
    expect(readAdminActivity(dir)).toBe(1_000_000);
    mkdirSync(join(dir, "logs"));
    writeFileSync(join(dir, "logs", "HEAD"), "");
    utimesSync(join(dir, "logs", "HEAD"), 3000, 3000);
    writeFileSync(join(dir, "index"), "");
    utimesSync(join(dir, "index"), 2000, 2000);
    expect(readAdminActivity(dir)).toBe(3_000_000);
    expect(readAdminActivity(`${dir}/`)).toBe(3_000_000);
  });
});

describe("readPlainFile's buffer (sized for the file)", () => {
  it("reads a file of any size up to the bound, and refuses one past it", () => {
    const dir = commonDir();
    for (const size of [0, 1, 255, 256, 257, 4096, 65_535, 65_536]) {
      const file = join(dir, `f${size}`);
      const bytes = Buffer.alloc(size, 0x61 + (size % 26));
      writeFileSync(file, bytes);
      expect(readPlainFile(file)?.equals(bytes), String(size)).toBe(true);
    }
    writeFileSync(join(dir, "big"), Buffer.alloc(65_537, 0x62));
    expect(readPlainFile(join(dir, "big"))).toBeNull();
    expect(readPlainFile(join(dir, "big"), 100_000)?.length).toBe(65_537);
    expect(readPlainFile(join(dir, "f4096"), 4095)).toBeNull();
  });

  it.runIf(process.platform === "linux")("grows while the file reads past the size fstat told (a /proc file tells 0)", () => {
    const environ = readFileSync("/proc/self/environ");
    expect(environ.length).toBeGreaterThan(1024);
    expect(readPlainFile("/proc/self/environ")?.equals(environ)).toBe(true);
    expect(readPlainFile("/proc/self/environ", 1024)).toBeNull();
  });
});
