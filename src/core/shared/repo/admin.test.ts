import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { deleteAdminDir, readAdminActivity, readAdminDirs, readAdminWorktreePath } from "./admin.js";

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

describe("deleteAdminDir", () => {
  it("deletes the admin dir with its logs, unlinks a link inside without following it, and leaves the other admin dirs", () => {
    const common = commonDir();
    const outside = join(commonDir(), "outside");
    mkdirSync(join(outside, "keep"), { recursive: true });
    writeFileSync(join(outside, "keep", "file"), "kept");
    const gone = admin(common, "gone", "/x/.git\n");
    const other = admin(common, "other", "/y/.git\n");
    mkdirSync(join(gone, "logs", "refs"), { recursive: true });
    writeFileSync(join(gone, "logs", "HEAD"), "log");
    writeFileSync(join(gone, "HEAD"), "ref: refs/heads/x\n");
    symlinkSync(outside, join(gone, "link-to-dir"));
    symlinkSync(join(outside, "keep", "file"), join(gone, "logs", "link-to-file"));
    deleteAdminDir(common, gone);
    expect(existsSync(gone)).toBe(false);
    expect(readFileSync(join(outside, "keep", "file"), "utf8")).toBe("kept");
    expect(existsSync(other)).toBe(true);
    deleteAdminDir(common, gone); // gone already: nothing to do
    deleteAdminDir(common, other);
    expect(existsSync(join(common, "worktrees"))).toBe(false); // the last one takes `worktrees` with it, as git does
    expect(() => deleteAdminDir(common, outside)).toThrow(/not an admin dir/);
    expect(existsSync(outside)).toBe(true);
  });
});
