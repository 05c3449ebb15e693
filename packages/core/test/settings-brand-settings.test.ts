import { getBrandSettings, updateBrandSettings } from '../src';
import { aWorld, domainErrorOf } from './orders-fixtures';

describe('brand settings', () => {
  it('gives a brand that never saved settings the defaults: external invoicing, no drop, 25 % VAT, ad hoc returns off', async () => {
    const world = await aWorld();
    expect(await getBrandSettings(world.deps, { brandId: world.brand.id })).toEqual({
      brandId: world.brand.id,
      invoicing: 'external',
      requiresDrop: false,
      defaultVatRateBasisPoints: 2500,
      adHocReturnMode: null,
      trackingLinkTemplates: {},
      updatedAt: null,
    });
  });

  it('changes only the settings given and keeps the others', async () => {
    const world = await aWorld();
    world.clock.advance(60_000);
    const updated = await updateBrandSettings(world.deps, {
      brandId: world.brand.id,
      changes: { invoicing: 'in_service', defaultVatRateBasisPoints: 1250 },
    });
    expect(updated).toMatchObject({
      invoicing: 'in_service',
      defaultVatRateBasisPoints: 1250,
      requiresDrop: false,
      updatedAt: world.clock.now(),
    });

    await updateBrandSettings(world.deps, {
      brandId: world.brand.id,
      changes: {
        requiresDrop: true,
        adHocReturnMode: 'credit_note_if_no_rma',
        trackingLinkTemplates: { dhl: 'https://dhl.example/track?id={track_trace}' },
      },
    });
    expect(await getBrandSettings(world.deps, { brandId: world.brand.id })).toMatchObject({
      invoicing: 'in_service',
      defaultVatRateBasisPoints: 1250,
      requiresDrop: true,
      adHocReturnMode: 'credit_note_if_no_rma',
      trackingLinkTemplates: { dhl: 'https://dhl.example/track?id={track_trace}' },
    });
  });

  it('turns ad hoc returns off again with null and replaces the whole tracking-link map', async () => {
    const world = await aWorld();
    const brandId = world.brand.id;
    await updateBrandSettings(world.deps, {
      brandId,
      changes: {
        adHocReturnMode: 'always_credit_note',
        trackingLinkTemplates: { dhl: 'https://d.example/{track_trace}', ups: 'https://u.example/{track_trace}' },
      },
    });
    await updateBrandSettings(world.deps, {
      brandId,
      changes: { adHocReturnMode: null, trackingLinkTemplates: { ups: 'https://u.example/v2/{track_trace}' } },
    });
    const settings = await getBrandSettings(world.deps, { brandId });
    expect(settings.adHocReturnMode).toBeNull();
    expect(settings.trackingLinkTemplates).toEqual({ ups: 'https://u.example/v2/{track_trace}' });
  });

  it('refuses a VAT rate outside 0–100 % and names every bad template, saving nothing', async () => {
    const world = await aWorld();
    const brandId = world.brand.id;
    const error = await domainErrorOf(
      updateBrandSettings(world.deps, {
        brandId,
        changes: {
          invoicing: 'in_service',
          defaultVatRateBasisPoints: 10_001,
          trackingLinkTemplates: {
            dhl: 'http://dhl.example/{track_trace}',
            ups: 'https://ups.example/track',
            'gls/de': 'not a url',
          },
        },
      }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.violations.map((v) => v.pointer)).toEqual([
      '/default_vat_rate',
      '/tracking_link_templates/dhl',
      '/tracking_link_templates/ups',
      '/tracking_link_templates/gls~1de',
    ]);
    expect(error.violations[2]!.detail).toContain('{track_trace}');
    expect(await getBrandSettings(world.deps, { brandId })).toMatchObject({
      invoicing: 'external',
      defaultVatRateBasisPoints: 2500,
      updatedAt: null,
    });
  });

  it('accepts the bounds 0 % and 100 % and refuses fractions of a basis point', async () => {
    const world = await aWorld();
    const brandId = world.brand.id;
    await updateBrandSettings(world.deps, { brandId, changes: { defaultVatRateBasisPoints: 0 } });
    await updateBrandSettings(world.deps, { brandId, changes: { defaultVatRateBasisPoints: 10_000 } });
    expect((await getBrandSettings(world.deps, { brandId })).defaultVatRateBasisPoints).toBe(10_000);
    const error = await domainErrorOf(
      updateBrandSettings(world.deps, { brandId, changes: { defaultVatRateBasisPoints: 12.5 } }),
    );
    expect(error.violations.map((v) => v.pointer)).toEqual(['/default_vat_rate']);
  });

  it('refuses unknown invoicing and ad hoc return modes', async () => {
    const world = await aWorld();
    const error = await domainErrorOf(
      updateBrandSettings(world.deps, {
        brandId: world.brand.id,
        changes: { invoicing: 'erp' as never, adHocReturnMode: 'sometimes' as never },
      }),
    );
    expect(error.violations.map((v) => v.pointer)).toEqual(['/invoicing', '/ad_hoc_return_mode']);
  });

  it("keeps each brand's settings to itself", async () => {
    const world = await aWorld();
    const other = await aWorld({ uow: world.uow, clock: world.clock, brandName: 'South Knits' });
    await updateBrandSettings(world.deps, { brandId: world.brand.id, changes: { invoicing: 'in_service' } });
    expect((await getBrandSettings(world.deps, { brandId: other.brand.id })).invoicing).toBe('external');
  });
});
