import { Repositories } from '@brand/core';
import { Kysely, Transaction } from 'kysely';
import { Database } from './database';
import { SqliteLane } from './sqlite-lane';

/** How far a group may grow; the defaults suit a server, tests pin them down. */
export interface TransactionGroupLimits {
  /** The most units of work one transaction carries (default 32). */
  mostMembers?: number;
  /**
   * After this many milliseconds a group takes no further member and commits (default 10). The
   * first member always runs, so a large sync, longer than the bound by itself, still commits
   * alone; the bound keeps the write lock, and the standalone reads queued behind it, from waiting
   * on a long train of members.
   */
  timeMs?: number;
  /** The clock of `timeMs`, in milliseconds (default `performance.now`). */
  now?: () => number;
  /**
   * Whether a group whose queue has run dry waits one turn of the event loop for more members
   * before it commits (default true). The server hands requests over a turn's budget at a time
   * (apps/api/src/http/requests-in-turn.ts), few for requests as costly as orders, so the next
   * order arrives a turn after the running one; without the wait most orders under load commit
   * alone.
   */
  gatherNextTurn?: boolean;
}

/** Resolves in the next turn of the event loop, after the callbacks already queued for it. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A unit of work waiting for, or running in, a group; settled only once its group has committed or failed. */
export interface GroupMember<T = unknown> {
  readonly work: (tx: Repositories) => Promise<T>;
  readonly resolve: (value: T) => void;
  /** Told of a failure that kept this member's writes out of the database: it retries or reports. */
  readonly failed: (error: unknown) => void;
}

/**
 * Group commit for SQLite: units of work that arrive while another is running are carried into
 * the same transaction, each in its own savepoint, and the group commits once.
 *
 * Why: SQLite has one writer, so under load the units of work already wait in line for the write
 * lock. Each of them then paid its own COMMIT and appended its own copy of the pages every order
 * touches (the counters, the indexes' upper pages, the stock rows) to the write-ahead log, and the
 * log's checkpoints, which copy those pages into the database file and flush it, took a large
 * share of every order's time under load (measured per statement). A group writes each shared
 * page once per commit.
 *
 * What each member still gets, as alone:
 * - its answer only after its writes are committed (`resolve` runs after COMMIT);
 * - all or nothing: a member that fails is rolled back to its savepoint, and the others go on;
 * - the same isolation: members run one after another, and each sees what the earlier ones wrote,
 *   as it would had they committed just before it.
 * A failure that ends the whole transaction (SQLite rolls back by itself on a full disk or an I/O
 * error; a failed COMMIT) keeps every member's writes out, and each member is told so (`failed`).
 *
 * The first member of a group runs without a savepoint: while it runs alone, its failure simply
 * rolls the transaction back, as before groups, so a request that finds no queue pays no
 * savepoint. When the queue runs dry the group waits one turn of the event loop for the next
 * member (`gatherNextTurn`): the server hands requests over a turn's budget at a time (few,
 * for requests as costly as orders), so without the wait most members under load ran dry and committed alone.
 */
export class SqliteTransactionGroups {
  private readonly queue: GroupMember[] = [];
  private draining = false;

  private readonly mostMembers: number;
  private readonly timeMs: number;
  private readonly now: () => number;
  private readonly gatherNextTurn: boolean;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly lane: SqliteLane,
    private readonly bind: (transaction: Transaction<Database>) => Repositories,
    limits: TransactionGroupLimits = {},
  ) {
    this.mostMembers = limits.mostMembers ?? 32;
    this.timeMs = limits.timeMs ?? 10;
    this.now = limits.now ?? (() => performance.now());
    this.gatherNextTurn = limits.gatherNextTurn ?? true;
  }

  /** Queues a member; a group starts at once when none is running. */
  enqueue(member: GroupMember): void {
    this.queue.push(member);
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.runGroup();
    } finally {
      this.draining = false;
    }
  }

  private async runGroup(): Promise<void> {
    const succeeded: { member: GroupMember; value: unknown }[] = [];
    let running: GroupMember | undefined;
    // The error a member threw. When the ROLLBACK after it fails too, Kysely throws the
    // rollback's error; the cause worth reporting and classifying is this one.
    const memberFailure: { failed: boolean; error?: unknown } = { failed: false };
    try {
      await this.db.transaction().execute(async (transaction) => {
        const started = this.now();
        while (succeeded.length < this.mostMembers) {
          if (succeeded.length > 0 && this.now() - started >= this.timeMs) break;
          if (this.queue.length === 0) {
            // Gathering: the write lock is held a turn longer, and the reads outside any
            // transaction meanwhile go to the committed-reads connection (sqlite-lane.ts).
            if (succeeded.length === 0 || !this.gatherNextTurn) break;
            await nextTurn();
            if (this.queue.length === 0) break;
            continue;
          }
          const member = this.queue.shift()!;
          running = member;
          const guarded = succeeded.length > 0;
          if (guarded) this.lane.run('savepoint grouped_member', []);
          try {
            const value = await member.work(this.bind(transaction));
            if (guarded) this.lane.run('release grouped_member', []);
            succeeded.push({ member, value });
            running = undefined;
          } catch (error) {
            // Alone, or when SQLite already ended the transaction, the failure ends the group.
            if (!guarded || !this.lane.inTransaction) {
              Object.assign(memberFailure, { failed: true, error });
              throw error;
            }
            this.lane.run('rollback to grouped_member', []);
            this.lane.run('release grouped_member', []);
            running = undefined;
            member.failed(error);
          }
        }
      });
    } catch (thrown) {
      const error = memberFailure.failed ? memberFailure.error : thrown;
      // Nothing of this transaction was stored. Had no member started (BEGIN failed), the
      // first in line takes the failure, as it would have alone; the others try in turn.
      const lost = [...succeeded.map((done) => done.member), ...(running ? [running] : [])];
      if (lost.length === 0 && this.queue.length > 0) lost.push(this.queue.shift()!);
      for (const member of lost) member.failed(error);
      return;
    }
    for (const { member, value } of succeeded) member.resolve(value);
  }
}
