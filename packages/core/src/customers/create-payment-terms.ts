import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { PaymentTerms } from './customer.entities';

/** Back office: adds payment terms; the code (the ERP's code) is unique within the brand. */
export async function createPaymentTerms(
  deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'paymentTerms'>>; clock: Clock },
  input: { brandId: number; code: string; name: string; days: number },
): Promise<PaymentTerms> {
  const violations = new ViolationList();
  if (input.code.trim() === '') violations.add('/code', 'must not be empty');
  if (input.name.trim() === '') violations.add('/name', 'must not be empty');
  if (!Number.isSafeInteger(input.days) || input.days < 0 || input.days > 3650)
    violations.add('/days', 'must be a whole number of days from 0 to 3650');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    if ((await tx.paymentTerms.findByCodes(input.brandId, [input.code.trim()])).length > 0) {
      throw new DomainError('duplicate', `payment terms with code ${input.code} already exist`, {
        violations: [{ pointer: '/code', detail: `code ${input.code} is taken` }],
      });
    }
    const [id] = await tx.ids.next('payment_terms');
    const now = deps.clock.now();
    const terms: PaymentTerms = {
      id: id!,
      brandId: input.brandId,
      code: input.code.trim(),
      name: input.name.trim(),
      days: input.days,
      createdAt: now,
      updatedAt: now,
    };
    await tx.paymentTerms.insert(terms);
    return terms;
  });
}
