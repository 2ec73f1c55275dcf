import type { ReplicaHandle } from "./replica";
import type { Database } from "./types";

/** Beyond this lag the replica serves no one: everyone's reads go to the primary until it catches up. */
export const REPLICA_MAX_LAG_MS = 30_000;
/** Past this many remembered writers, those the replica has caught up with are forgotten. */
const PRUNE_AT = 10_000;

/**
 * Which server answers a read (docs/operations.md, "Pooler and replica"). Every write goes to the primary. A read
 * goes to the replica when there is one, it answers, it lags less than REPLICA_MAX_LAG_MS, and the one reading has
 * written nothing it has not replayed yet: their own writes are always in what they read. `who` names the writer
 * (an API key, a dashboard user); the writes remembered are this process's.
 */
export class ReadRouting {
  private readonly lastWrite = new Map<string, number>();

  constructor(
    private readonly primary: Database,
    readonly replica?: ReplicaHandle,
  ) {}

  /** The database `who`'s list, search, statistics or export reads from. */
  reader(who: string | undefined): Database {
    const replica = this.replica;
    if (!replica) return this.primary;
    const fresh = replica.freshAsOf();
    if (fresh === null || performance.now() - fresh > REPLICA_MAX_LAG_MS) return this.primary;
    const wrote = who === undefined ? undefined : this.lastWrite.get(who);
    return wrote !== undefined && wrote >= fresh ? this.primary : replica.db;
  }

  /** `who` has just finished a change (its transaction committed or rolled back): their reads follow it. */
  wrote(who: string | undefined): void {
    if (!this.replica || who === undefined) return;
    this.lastWrite.delete(who); // re-inserted last: the map stays in write order, oldest first
    this.lastWrite.set(who, performance.now());
    if (this.lastWrite.size > PRUNE_AT) this.forgetReplayed();
  }

  /** How far the replica is behind (ms); null with no replica, Infinity when it cannot be used. */
  lagMs(): number | null {
    if (!this.replica) return null;
    const fresh = this.replica.freshAsOf();
    return fresh === null ? Infinity : Math.max(0, performance.now() - fresh);
  }

  /** The lag of the replica while it serves reads (ms); null while every read goes to the primary. */
  servingLagMs(): number | null {
    const lag = this.lagMs();
    return lag === null || lag > REPLICA_MAX_LAG_MS ? null : lag;
  }

  private forgetReplayed() {
    const fresh = this.replica?.freshAsOf() ?? null;
    if (fresh === null) return;
    for (const [who, at] of this.lastWrite) {
      if (at >= fresh) break;
      this.lastWrite.delete(who);
    }
  }
}
