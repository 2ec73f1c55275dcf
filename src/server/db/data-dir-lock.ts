import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * One process per embedded data folder (PGlite keeps its state in memory and writes it back on its own
 * schedule: a second process on the same folder silently loses the other's writes). Every process that opens
 * DATA_DIR takes `DATA_DIR/lock` first; a second opener refuses at once, before touching any data.
 *
 * The way PostgreSQL's own postmaster.pid works (docs/decisions.md, "One process per data folder"): the file is
 * created exclusively and holds the holder's pid and start time; a lock whose holder no longer runs (SIGKILL,
 * power loss) is stale and taken over. The start time (Linux's /proc/<pid>/stat) tells a recycled pid — a
 * restarted container's pid 1 — from the holder. No timer refreshes it, so a busy event loop cannot lose it.
 */
export interface DataDirLock {
  release(): void;
}

interface Holder {
  pid: number;
  startTime: string | null;
  command: string;
  since: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder.pid} (${holder.command}, since ${holder.since}). ` +
        "Only one process may open it: stop the server first (or run this before starting it), " +
        "or set DATABASE_URL to use a PostgreSQL server, which any number of processes can share.",
    );
    this.name = "DataDirInUseError";
  }
}

export function lockDataDir(dataDir: string): DataDirLock {
  const file = path.join(dataDir, "lock");
  const me: Holder = {
    pid: process.pid,
    startTime: startTimeOf(process.pid),
    command: describeCommand(),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(me), { flag: "wx" });
      return ownLock(file, me);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(file);
    if (holder && isRunning(holder)) throw new DataDirInUseError(dataDir, holder);
    // Stale (or half-written by a holder killed mid-write): remove it and try again. Two processes taking
    // over the same stale lock both remove it, but only one exclusive create then succeeds.
    removeIfUnchanged(file, holder);
  }
  const holder = readHolder(file);
  throw new DataDirInUseError(dataDir, holder ?? { pid: 0, startTime: null, command: "unknown", since: "unknown" });
}

function ownLock(file: string, me: Holder): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    const holder = readHolder(file);
    if (holder?.pid === me.pid && holder.since === me.since) rmSync(file, { force: true });
  };
  // A process that exits without closing the database (an uncaught error) still leaves the folder free.
  process.on("exit", release);
  return { release };
}

function readHolder(file: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(file, "utf8")) as Holder;
    return Number.isInteger(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

function removeIfUnchanged(file: string, seen: Holder | null) {
  const now = readHolder(file);
  if (now && seen && (now.pid !== seen.pid || now.since !== seen.since)) return; // someone else just took it
  rmSync(file, { force: true });
}

function isRunning(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // Alive: the holder itself, unless the pid was recycled by a later process (then its start time differs).
  const startTime = startTimeOf(holder.pid);
  return holder.startTime === null || startTime === null || startTime === holder.startTime;
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); null off Linux. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function describeCommand(): string {
  const script = process.argv.slice(1, 3).map((part) => path.basename(part));
  return ["node", ...script].join(" ");
}
