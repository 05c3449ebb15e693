import { ErrorCode, StateMachine, isDomainError } from '../src';

/**
 * A lifecycle table and the use cases that drive it, for `walkLifecycle`.
 * `D` is whatever a walk needs to find its document again (a shop and an id).
 */
export interface LifecycleWalk<S extends string, D> {
  machine: StateMachine<S>;
  /** A fresh shop with one document in `state`, brought there through the use cases. */
  arrange(state: S): Promise<D>;
  /** For every state a transition leads to, the use case that moves a document there. */
  movers: Partial<Record<S, (document: D) => Promise<unknown>>>;
  /** The document's status, as a read use case shows it. */
  statusOf(document: D): Promise<S>;
}

/**
 * One test per pair of states, generated from the table: every allowed move is made through its
 * use case and lands in its target; every forbidden one is refused with
 * `invalid_state_transition` — or, for the idempotent exports, accepted without moving — and
 * leaves the document where it was. A table that gains a transition gets its tests without a
 * line written here; a use case that moves a document behind the table's back fails them.
 */
export function walkLifecycle<S extends string, D>(
  walk: LifecycleWalk<S, D>,
  options: {
    /** Targets whose use case accepts a repeat without moving (the exports' marks). */
    idempotent?: readonly S[];
    /** The codes a refusal may carry; `invalid_state_transition` unless a contract words it otherwise. */
    refusals?: readonly ErrorCode[];
  } = {},
): void {
  const refusals = options.refusals ?? ['invalid_state_transition'];
  const { machine, movers } = walk;
  const targets = machine.states.filter((state) => movers[state] !== undefined);

  it('has a use case for every state a transition leads to', () => {
    const ledTo = machine.states.filter((to) => machine.states.some((from) => machine.canTransition(from, to)));
    expect(ledTo.filter((state) => movers[state] === undefined)).toEqual([]);
  });

  for (const from of machine.states) {
    for (const to of targets) {
      const move = movers[to]!;
      if (machine.canTransition(from, to)) {
        it(`moves ${from} → ${to}`, async () => {
          const document = await walk.arrange(from);
          await move(document);
          expect(await walk.statusOf(document)).toBe(to);
        });
      } else {
        it(`refuses ${from} → ${to}, leaving it ${from}`, async () => {
          const document = await walk.arrange(from);
          const outcome = await move(document).then(
            () => 'accepted' as const,
            (error: unknown) => error,
          );
          if (outcome === 'accepted') expect(options.idempotent ?? []).toContain(to);
          else if (!isDomainError(outcome)) throw outcome;
          else expect(refusals).toContain(outcome.code);
          expect(await walk.statusOf(document)).toBe(from);
        });
      }
    }
  }
}
