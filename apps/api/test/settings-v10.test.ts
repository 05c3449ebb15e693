import request from 'supertest';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

const DEFAULTS = {
  invoicing: 'external',
  requires_drop: false,
  default_vat_rate: 25,
  ad_hoc_return_mode: null,
  tracking_link_templates: {},
  updated_at: null,
};

for (const dialect of oneTestDialect()) {
  describe(`brand settings [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    const get = () => request(t.server).get('/v10/settings').set(brand.headers);
    const patch = (body: Record<string, unknown>) =>
      request(t.server).patch('/v10/settings').set(brand.headers).send(body);

    it('shows the defaults to a brand that never changed them', async () => {
      const response = await get();
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ settings: DEFAULTS });
    });

    it('changes the fields sent and keeps the others', async () => {
      const first = await patch({
        invoicing: 'in_service',
        default_vat_rate: 21.5,
        tracking_link_templates: { myposten: 'https://track.example/{track_trace}' },
      });
      expect(first.status).toBe(200);
      const changed = {
        invoicing: 'in_service',
        requires_drop: false,
        default_vat_rate: 21.5,
        ad_hoc_return_mode: null,
        tracking_link_templates: { myposten: 'https://track.example/{track_trace}' },
        updated_at: t.clock.now(),
      };
      expect(first.body).toEqual({ settings: changed });
      t.clock.advance(1000);
      const second = await patch({ requires_drop: true, ad_hoc_return_mode: 'credit_note_if_no_rma' });
      expect(second.body.settings).toEqual({
        ...changed,
        requires_drop: true,
        ad_hoc_return_mode: 'credit_note_if_no_rma',
        updated_at: t.clock.now(),
      });
      expect((await get()).body).toEqual(second.body);
      // null turns ad hoc returns off again; an empty body changes nothing but the time.
      expect((await patch({ ad_hoc_return_mode: null })).body.settings.ad_hoc_return_mode).toBeNull();
      expect((await patch({})).body.settings).toMatchObject({ invoicing: 'in_service', requires_drop: true });
    });

    it('refuses invalid values naming each field, and changes nothing', async () => {
      const response = await patch({
        invoicing: 'erp',
        requires_drop: 'yes',
        default_vat_rate: 100.5,
        ad_hoc_return_mode: 'sometimes',
        tracking_link_templates: 'https://x.example',
      });
      expect(response.status).toBe(422);
      expect(
        response.body.errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail]),
      ).toEqual([
        ['/invoicing', 'invoicing must be one of external, in_service'],
        ['/requires_drop', 'requires_drop must be a boolean value'],
        ['/default_vat_rate', 'default_vat_rate must not be greater than 100'],
        [
          '/ad_hoc_return_mode',
          'ad_hoc_return_mode must be one of always_credit_note, credit_note_if_no_rma, alert_if_no_rma, or null to turn ad hoc returns off',
        ],
        ['/tracking_link_templates', 'tracking_link_templates must be an object of carrier codes to link templates'],
      ]);
      const decimals = await patch({ default_vat_rate: 25.125, invoicing: null });
      expect(decimals.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
        '/invoicing',
        '/default_vat_rate',
      ]);
      expect((await get()).body).toEqual({ settings: DEFAULTS });
    });

    it('refuses a tracking link template that is no https URL with {track_trace}, naming the carrier', async () => {
      const response = await patch({
        tracking_link_templates: {
          gls: 'http://gls.example/{track_trace}',
          'my/post': 'https://post.example/track',
          dao: 5,
        },
      });
      expect(response.status).toBe(422);
      expect(
        response.body.errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail]),
      ).toEqual([
        ['/tracking_link_templates/gls', 'tracking_link_templates.gls must be an https URL'],
        ['/tracking_link_templates/my~1post', expect.stringContaining('must contain {track_trace}')],
        ['/tracking_link_templates/dao', 'tracking_link_templates.dao must be an https URL'],
      ]);
      expect((await get()).body.settings.tracking_link_templates).toEqual({});
    });

    it("keeps each brand's settings to itself", async () => {
      await patch({ invoicing: 'in_service' });
      const other = await createIntegrator(t.storage, t.clock);
      expect((await request(t.server).get('/v10/settings').set(other.headers)).body.settings.invoicing).toBe(
        'external',
      );
    });

    it('needs settings:read to read and settings:write to change', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['settings:read'] });
      expect((await request(t.server).get('/v10/settings').set(reader.headers)).status).toBe(200);
      const refused = await request(t.server).patch('/v10/settings').set(reader.headers).send({ requires_drop: true });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].meta.missing_scopes).toEqual(['settings:write']);
      const writer = await createIntegrator(t.storage, t.clock, { scopes: ['settings:write'] });
      expect((await request(t.server).get('/v10/settings').set(writer.headers)).status).toBe(403);
    });
  });
}
