import {
  FixedClock,
  createBrand,
  createClaimCause,
  createReturnPortal,
  listClaimCauses,
  listReturnPortals,
} from '../src';
import { FakeSecretHasher, InMemoryUnitOfWork } from '../src/testing';
import { domainErrorOf } from './orders-fixtures';

async function aBrand() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock('2026-04-01T08:00:00.000Z');
  const deps = { uow, clock, hasher: new FakeSecretHasher() };
  const brand = await createBrand(deps, { name: 'North Knits', currency: 'EUR' });
  return { deps, brand };
}

describe('claim causes', () => {
  it('are created trimmed and listed; two causes may share a code', async () => {
    const { deps, brand } = await aBrand();
    const damaged = await createClaimCause(deps, { brandId: brand.id, code: ' damaged ', name: ' Damaged ' });
    const again = await createClaimCause(deps, { brandId: brand.id, code: 'DAMAGED', name: 'Damaged (transport)' });
    expect(damaged).toEqual({
      id: expect.any(Number),
      brandId: brand.id,
      code: 'damaged',
      name: 'Damaged',
      createdAt: deps.clock.now(),
      updatedAt: deps.clock.now(),
    });

    const { page } = await listClaimCauses(deps, { brandId: brand.id, query: {} });
    expect(page.items).toEqual([damaged, again]);
    expect(await deps.uow.read((r) => r.claimCauses.findByCodes(brand.id, ['Damaged']))).toEqual([damaged, again]);
  });

  it('refuse a blank code or name, naming each field, and store nothing', async () => {
    const { deps, brand } = await aBrand();
    const error = await domainErrorOf(createClaimCause(deps, { brandId: brand.id, code: ' ', name: '' }));
    expect(error.code).toBe('validation_failed');
    expect(error.violations.map((v) => v.pointer)).toEqual(['/code', '/name']);
    expect((await listClaimCauses(deps, { brandId: brand.id, query: {} })).page.items).toEqual([]);
  });
});

describe('return portals', () => {
  it('get a generated public id, unique across brands, and list with their type', async () => {
    const { deps, brand } = await aBrand();
    const custom = await createReturnPortal(deps, { brandId: brand.id, name: ' Webshop returns ', type: 'custom' });
    const service = await createReturnPortal(deps, {
      brandId: brand.id,
      name: 'Service',
      type: 'service',
      requiresClaimCauses: true,
    });
    expect(custom).toEqual({
      id: expect.any(Number),
      brandId: brand.id,
      publicId: expect.any(String),
      name: 'Webshop returns',
      type: 'custom',
      requiresClaimCauses: false,
      createdAt: deps.clock.now(),
      updatedAt: deps.clock.now(),
    });
    expect(service.publicId).not.toBe(custom.publicId);
    expect(await deps.uow.read((r) => r.returnPortals.findByPublicIdAnyBrand(service.publicId))).toEqual(service);
    expect((await listReturnPortals(deps, { brandId: brand.id, query: {} })).page.items).toEqual([custom, service]);
  });

  it('accept a partner type shaped like an app internal code and refuse other types and blank names', async () => {
    const { deps, brand } = await aBrand();
    expect(await createReturnPortal(deps, { brandId: brand.id, name: 'Partner', type: 'returnista' })).toMatchObject({
      type: 'returnista',
    });
    for (const type of ['', 'Custom', 'my portal', 'x'.repeat(65)]) {
      const error = await domainErrorOf(createReturnPortal(deps, { brandId: brand.id, name: 'Bad', type }));
      expect(error.violations.map((v) => v.pointer)).toEqual(['/type']);
    }
    const blank = await domainErrorOf(createReturnPortal(deps, { brandId: brand.id, name: ' ', type: 'custom' }));
    expect(blank.violations.map((v) => v.pointer)).toEqual(['/name']);
    expect((await listReturnPortals(deps, { brandId: brand.id, query: {} })).page.items).toHaveLength(1);
  });
});
