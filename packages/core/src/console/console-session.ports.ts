import { ConsoleSession } from './console-session.entities';

/**
 * Console sessions, found by (brand, hash of the cookie's secret). Every method takes the brand:
 * another brand's session is never found, touched or ended.
 * @example const session = await tx.consoleSessions.findByHash(brandId, hasher.hash(secret));
 */
export interface ConsoleSessionRepository {
  insert(session: ConsoleSession): Promise<void>;
  findByHash(brandId: number, secretHash: string): Promise<ConsoleSession | null>;
  /** Records a request seen with the session at `at`; false when the brand has no such session. */
  touch(brandId: number, id: number, at: string): Promise<boolean>;
  /** Deletes the session; false when the brand has no such session (ended already). */
  delete(brandId: number, id: number): Promise<boolean>;
  /**
   * Deletes at most `limit` sessions of any brand that are over at `at`: past their absolute end
   * (`expiresAt <= at`) or without a request since `idleSince` (`lastSeenAt <= idleSince`), the
   * rule of `consoleSessionEnded`. Answers how many went; fewer than `limit` means none is left.
   * @example const deleted = await tx.consoleSessions.deleteEnded(now, twelveHoursAgo, 1000);
   */
  deleteEnded(at: string, idleSince: string, limit: number): Promise<number>;
}

/** The console module's repositories; the declaration below adds them to `Repositories`. */
export interface ConsoleRepositories {
  consoleSessions: ConsoleSessionRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends ConsoleRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The console module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    console_sessions: true;
  }
}
