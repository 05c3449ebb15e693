import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { PaymentTerms } from './customer.entities';
import { paymentTermsListDefinition } from './customer.list-definitions';

/** Lists a brand's payment terms. */
export async function listPaymentTerms(
  deps: { uow: UnitOfWork<Pick<Repositories, 'paymentTerms'>> },
  request: ListRequest,
): Promise<{ page: Page<PaymentTerms>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(paymentTermsListDefinition, request, (q) => repos.paymentTerms.list(request.brandId, q)),
  );
}
