import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { Return } from './return.entities';

/** The brand's return by id (locked until the transaction ends on Postgres), or 404: another brand's return is as unknown as a missing one. */
export async function findReturnOrFail(
  repos: Pick<Repositories, 'returns'>,
  brandId: number,
  returnId: number,
): Promise<Return> {
  const [ret] = await repos.returns.findByIds(brandId, [returnId]);
  if (!ret) throw DomainError.notFound('return', returnId);
  return ret;
}
