/**
 * Every repository, bound to one transaction (or, in `read`, to a plain connection). Empty here:
 * each module adds its own by declaration merging in its ports file (`interface Repositories
 * extends CustomerRepositories {}` in `customer.ports.ts`), so a new module registers its
 * repositories where it declares them, and this file depends on no module.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the modules' ports files fill it by declaration merging
export interface Repositories {}

/**
 * The one transaction boundary. `run` opens a transaction, hands every repository bound to it
 * to `work`, commits when it resolves and rolls back when it throws. When storage reports a
 * write conflict (a unique key taken by a concurrent transaction, a serialization failure) the
 * adapter rolls back and runs `work` again, a few times, before giving up with
 * `concurrency_conflict`; `work` must therefore be safe to repeat (it is: it only uses `tx`).
 *
 * `R` is what the holder may reach. The adapters bind every repository (`UnitOfWork`, all of
 * `Repositories`); a use case declares the ones it uses, `UnitOfWork<Pick<Repositories, …>>`, so
 * reaching another does not compile, and the adapters' unit of work fits every such declaration.
 *
 * @example
 * async function createCustomer(deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'customers'>> }, draft: Customer) {
 *   return deps.uow.run(async (tx) => {
 *     const [id] = await tx.ids.next('customers');
 *     await tx.customers.save({ ...draft, id: id! });
 *     return { ...draft, id: id! };
 *   });
 * }
 */
export interface UnitOfWork<R extends object = Repositories> {
  run<T>(work: (tx: R) => Promise<T>): Promise<T>;
  /** Reads without opening a transaction (one consistent snapshot is not promised). */
  read<T>(work: (repositories: R) => Promise<T>): Promise<T>;
}
