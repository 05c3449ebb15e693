/**
 * @brand/persistence-kysely — the @brand/core ports on Kysely, one schema for SQLite
 * (better-sqlite3) and Postgres (pg).
 *
 * @example
 * const storage = await openStorage(process.env.DATABASE_URL ?? './data/brand.sqlite');
 * await storage.migrate();
 * const page = await listCustomers({ uow: storage.uow }, { brandId, query: {} });
 */
export * from './storage';
export { openStorage } from './open-storage';
export { parseDatabaseUrl } from './connection';
export { KyselyUnitOfWork, bindRepositories } from './unit-of-work';
export type { TransactionGroupLimits } from './sqlite-transaction-groups';
export type { Database } from './database';
export { connect as connectKysely } from './connection';
export { planCitusDistribution, readCitusDistribution } from './citus-distribution';
export type { CitusDistribution } from './citus-distribution';
