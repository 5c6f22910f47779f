// Where the run's temporary files go (vitest.config.ts sets TMPDIR to it before any test process
// starts; ./scratch-setup.ts removes it when the run ends). Every scenario is a few hundred small
// files made and deleted within seconds, tens of thousands in a run: on a file system in memory
// (tmpfs) that costs the kernel far less than on a disk, and on an ext4 without a journal, as this
// project's CI machine has, each new inode is searched for past the recently deleted ones (measured:
// a whole run 264 s on that disk, 232 s on tmpfs). The tests behave the same on both; the few that
// need a second file system find one with `otherFileSystem` below.
//
// ORCHARD_TEST_TMPDIR=<dir> chooses the parent (an existing directory); without it, /dev/shm when it
// is a writable tmpfs, else the machine's own temp dir.
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, statfsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TMPFS_MAGIC = 0x01021994;
/** Every run's scratch directory is named `orchard-tests-<pid>-<random>`. */
export const SCRATCH_PREFIX = "orchard-tests-";

/** The parent of the run's scratch directory, and why it was chosen. */
export function scratchParent(): { dir: string; why: string } {
  const chosen = process.env.ORCHARD_TEST_TMPDIR;
  if (chosen !== undefined && chosen !== "") {
    if (!existsSync(chosen) || !statSync(chosen).isDirectory())
      throw new Error(`ORCHARD_TEST_TMPDIR must name an existing directory, not ${JSON.stringify(chosen)}`);
    return { dir: realpathSync(chosen), why: "ORCHARD_TEST_TMPDIR" };
  }
  try {
    accessSync("/dev/shm", constants.W_OK);
    if (statfsSync("/dev/shm").type === TMPFS_MAGIC) return { dir: "/dev/shm", why: "tmpfs" };
  } catch {
    // no /dev/shm, or not ours to write: the machine's temp dir
  }
  return { dir: realpathSync(tmpdir()), why: "the machine's temp dir" };
}

/** Makes this run's scratch directory under `parent`, first removing those of runs whose process is gone (a killed run's files stay in memory on a tmpfs). */
export function makeScratch(parent: string): string {
  for (const name of readdirSync(parent)) {
    const pid = Number(/^orchard-tests-(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
  return realpathSync(mkdtempSync(join(parent, `${SCRATCH_PREFIX}${process.pid}-`)));
}

/** Whether a process of that pid exists (ESRCH: gone; EPERM: someone else's, but there). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A new directory on another file system than `than` (the disk when the run's scratch is on tmpfs, or the other way round); null when the machine offers only one. The caller removes it. */
export function otherFileSystem(than: string, prefix: string): string | null {
  const dev = statSync(than).dev;
  for (const parent of ["/dev/shm", process.env.ORCHARD_TEST_HOST_TMPDIR, "/var/tmp", "/tmp"]) {
    if (!parent) continue;
    try {
      accessSync(parent, constants.W_OK);
      if (statSync(parent).dev !== dev) return realpathSync(mkdtempSync(join(parent, prefix)));
    } catch {
      // not there, or not writable: the next one
    }
  }
  return null;
}
