import {
  DomainError,
  StateMachine,
  TransitionTable,
  alertLifecycle,
  defineStateMachine,
  deliveryNoteLifecycle,
  financialDocumentLifecycle,
  orderLifecycle,
  productionOrderLifecycle,
  returnLifecycle,
  shipmentLifecycle,
} from '../src';

type Light = 'green' | 'amber' | 'red' | 'off';

const table: TransitionTable<Light> = {
  green: { to: ['amber', 'off'] },
  amber: { to: ['red', 'off'] },
  red: { to: ['green', 'off'] },
  off: { to: [] },
};
const light = defineStateMachine('traffic light', table);
const states = Object.keys(table) as Light[];
const allowed = states.flatMap((from) => table[from].to.map((to) => [from, to] as const));
const forbidden = states.flatMap((from) =>
  states.filter((to) => !table[from].to.includes(to)).map((to) => [from, to] as const),
);

describe('a state machine defined by a transition table', () => {
  it('knows every state of its table', () => {
    expect(light.states).toEqual(['green', 'amber', 'red', 'off']);
  });

  it.each(allowed)('allows %s -> %s', (from, to) => {
    expect(light.canTransition(from, to)).toBe(true);
    expect(() => light.assertTransition(from, to)).not.toThrow();
  });

  it.each(forbidden)('refuses %s -> %s with invalid_state_transition', (from, to) => {
    expect(light.canTransition(from, to)).toBe(false);
    expect(() => light.assertTransition(from, to)).toThrow(DomainError);
    try {
      light.assertTransition(from, to);
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_state_transition', data: { from, to, allowed: table[from].to } });
      expect((error as Error).message).toBe(`traffic light cannot move from ${from} to ${to}`);
    }
  });

  it('covers every pair of states exactly once between the allowed and the forbidden walks', () => {
    expect(allowed.length + forbidden.length).toBe(states.length * states.length);
  });

  it('refuses to stay in the same state unless the table says so', () => {
    expect(light.canTransition('green', 'green')).toBe(false);
    const looping = defineStateMachine<'open'>('loop', { open: { to: ['open'] } });
    expect(looping.canTransition('open', 'open')).toBe(true);
  });

  it('refuses a move from a state the table does not know', () => {
    expect(light.canTransition('blue' as Light, 'green')).toBe(false);
    expect(() => light.assertTransition('blue' as Light, 'green')).toThrow(
      expect.objectContaining({ code: 'invalid_state_transition' }),
    );
  });

  it('cannot be defined with a transition to an unknown state', () => {
    const broken = { draft: { to: ['published'] }, archived: { to: [] } } as unknown as TransitionTable<
      'draft' | 'archived'
    >;

    expect(() => defineStateMachine('article', broken)).toThrow(
      'article: transition draft -> published targets an unknown state',
    );
  });
});

/** Where each lifecycle starts: the status its documents are created in (DESIGN §5). */
const LIFECYCLES: [string, StateMachine<string>, string[]][] = [
  [orderLifecycle.name, orderLifecycle, ['draft']],
  [shipmentLifecycle.name, shipmentLifecycle, ['open']],
  [financialDocumentLifecycle.name, financialDocumentLifecycle, ['draft']],
  // Back-office RMAs start open, portal returns approved, ad hoc returns received.
  [returnLifecycle.name, returnLifecycle, ['open', 'approved', 'received']],
  [productionOrderLifecycle.name, productionOrderLifecycle, ['draft']],
  [deliveryNoteLifecycle.name, deliveryNoteLifecycle, ['expected']],
  [alertLifecycle.name, alertLifecycle, ['open']],
];

describe.each(LIFECYCLES)('the %s lifecycle', (_name, machine, initial) => {
  it('reaches every one of its states from where its documents start', () => {
    const reached = new Set(initial);
    for (let grew = true; grew; ) {
      grew = false;
      for (const from of [...reached]) {
        for (const to of machine.states.filter((state) => machine.canTransition(from, state) && !reached.has(state))) {
          reached.add(to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...machine.states].sort());
  });

  it('ends somewhere: at least one state no transition leaves', () => {
    expect(
      machine.states.some((from) => machine.states.every((to) => !machine.canTransition(from, to) || to === from)),
    ).toBe(true);
  });
});
