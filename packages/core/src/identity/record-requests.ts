import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { RequestLogEntry } from './identity.entities';

/** Records authenticated requests on their users, in one transaction per batch. */
export async function recordRequests(
  deps: { uow: UnitOfWork<Pick<Repositories, 'requestLogs'>> },
  entries: RequestLogEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await deps.uow.run((tx) => tx.requestLogs.append(entries));
}
