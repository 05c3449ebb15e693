import { DomainError } from './errors';

/** A lifecycle as data: for every state, the states it may move to. */
export type TransitionTable<S extends string> = { readonly [state in S]: { readonly to: readonly S[] } };

/** Checks a table once at definition time: every target must itself be a state of the table. */
export function defineStateMachine<S extends string>(name: string, table: TransitionTable<S>): StateMachine<S> {
  const states = Object.keys(table) as S[];
  for (const state of states) {
    for (const target of table[state].to) {
      if (!(target in table)) throw new Error(`${name}: transition ${state} -> ${target} targets an unknown state`);
    }
  }
  return new StateMachine(name, table);
}

/**
 * A lifecycle made by `defineStateMachine`: lists its states and refuses moves its table does not
 * allow (`assertTransition`).
 */
export class StateMachine<S extends string> {
  constructor(
    readonly name: string,
    private readonly table: TransitionTable<S>,
  ) {}

  get states(): S[] {
    return Object.keys(this.table) as S[];
  }

  canTransition(from: S, to: S): boolean {
    return this.table[from]?.to.includes(to) ?? false;
  }

  /** Throws `invalid_state_transition` when the move is not in the table. */
  assertTransition(from: S, to: S): void {
    if (!this.canTransition(from, to)) {
      throw new DomainError('invalid_state_transition', `${this.name} cannot move from ${from} to ${to}`, {
        data: { from, to, allowed: this.table[from]?.to ?? [] },
      });
    }
  }
}
