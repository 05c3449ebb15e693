import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findReturnOrFail } from './find-return';
import { Return } from './return.entities';
import { returnLifecycle } from './return.lifecycle';

/**
 * Back office: approves an announced RMA (`POST /v10/returns/{id}/approve`), open → approved, which
 * puts it in the warehouse's export and lets the warehouse receive it. Any other status is a 422
 * (`invalid_state_transition`). Announces `return.approved`.
 */
export async function approveReturn(
  deps: {
    uow: UnitOfWork<
      Pick<
        Repositories,
        'events' | 'ids' | 'returns' | 'timeline' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints'
      >
    >;
    clock: Clock;
  },
  input: { brandId: number; userId: number | null; returnId: number },
): Promise<Return> {
  return deps.uow.run(async (tx) => {
    const found = await findReturnOrFail(tx, input.brandId, input.returnId);
    returnLifecycle.assertTransition(found.status, 'approved');
    const at = deps.clock.now();
    const ret: Return = { ...found, status: 'approved', approvedAt: at, updatedAt: at };
    await tx.returns.save(ret);
    await recordEvents(tx, ret.brandId, at, [
      { type: 'return.approved', object: ret, timeline: { note: `RMA ${ret.rma} approved`, userId: input.userId } },
    ]);
    return ret;
  });
}
