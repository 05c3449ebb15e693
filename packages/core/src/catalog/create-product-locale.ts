import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ProductLocale } from './catalog.entities';

/**
 * Back office: adds a language the brand translates products into. Its code (e.g. `de`,
 * `en-GB`) is unique within the brand; product translations name the locale by id or code.
 *
 * @example
 * const locale = await createProductLocale({ uow }, { brandId, code: 'de', name: 'German' });
 */
export async function createProductLocale(
  deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'productLocales'>> },
  input: { brandId: number; code: string; name: string },
): Promise<ProductLocale> {
  const code = input.code.trim();
  const name = input.name.trim();
  const violations = new ViolationList();
  if (code === '') violations.add('/code', 'must not be empty');
  else if (/\s/.test(code)) violations.add('/code', 'must not contain spaces');
  if (name === '') violations.add('/name', 'must not be empty');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    if ((await tx.productLocales.findByCodes(input.brandId, [code])).length > 0) {
      throw new DomainError('duplicate', `a product locale with code ${code} already exists`, {
        violations: [{ pointer: '/code', detail: `code ${code} is taken` }],
      });
    }
    const [id] = await tx.ids.next('product_locales');
    const locale: ProductLocale = { id: id!, brandId: input.brandId, code, name };
    await tx.productLocales.insert(locale);
    return locale;
  });
}
