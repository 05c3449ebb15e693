import { ExportMark, TimelineEvent } from '../documents/document.entities';
import { CreditNote } from '../finance/finance.entities';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findReturnOrFail } from './find-return';
import { Return } from './return.entities';
import { settleAll } from '../shared/settle-all';

/** One return of the brand with its lines, credit notes, export marks and timeline (`GET /v10/returns/{id}`); 404 otherwise. */
export async function getReturn(
  deps: { uow: UnitOfWork<Pick<Repositories, 'creditNotes' | 'exportMarks' | 'returns' | 'timeline'>> },
  input: { brandId: number; returnId: number },
): Promise<{ ret: Return; creditNotes: CreditNote[]; exports: ExportMark[]; timeline: TimelineEvent[] }> {
  return deps.uow.read(async (repos) => {
    const ret = await findReturnOrFail(repos, input.brandId, input.returnId);
    const [creditNotes, exports, timeline] = await settleAll([
      repos.creditNotes.findByReturnIds(input.brandId, [ret.id]),
      repos.exportMarks.marksOf(input.brandId, 'return', [ret.id]),
      repos.timeline.eventsOf(input.brandId, 'return', ret.id),
    ]);
    return { ret, creditNotes, exports, timeline };
  });
}
