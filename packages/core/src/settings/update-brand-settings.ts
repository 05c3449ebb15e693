import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { loadSettings } from './load-settings';
import { AD_HOC_RETURN_MODES, BrandSettings, INVOICING_MODES } from './settings.entities';

/** The settings `updateBrandSettings` may change; fields left out keep their value. */
export type BrandSettingsChanges = Partial<
  Pick<
    BrandSettings,
    'invoicing' | 'requiresDrop' | 'defaultVatRateBasisPoints' | 'adHocReturnMode' | 'trackingLinkTemplates'
  >
>;

/** The longest carrier code a tracking-link template may be keyed by. */
export const MAX_CARRIER_CODE_LENGTH = 50;

/** An https URL with a host and no whitespace. */
const HTTPS_URL = /^https:\/\/[^\s/?#]+[^\s]*$/i;

/** A JSON pointer segment for an object key (RFC 6901: `~` → `~0`, `/` → `~1`). */
const pointerSegment = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * `PATCH /v10/settings`: changes the given settings and keeps the others. Values are checked as
 * a whole before anything is saved (pointers name the wire fields: `/default_vat_rate`,
 * `/tracking_link_templates/<carrier>`). `trackingLinkTemplates`, when given, replaces the
 * brand's whole map (send the map without a carrier to drop its template).
 */
export async function updateBrandSettings(
  deps: { uow: UnitOfWork<Pick<Repositories, 'settings'>>; clock: Clock },
  input: { brandId: number; changes: BrandSettingsChanges },
): Promise<BrandSettings> {
  const { changes } = input;
  const violations = new ViolationList();
  if (changes.invoicing !== undefined && !INVOICING_MODES.includes(changes.invoicing)) {
    violations.add('/invoicing', `must be one of ${INVOICING_MODES.join(', ')}`);
  }
  if (changes.requiresDrop !== undefined && typeof changes.requiresDrop !== 'boolean')
    violations.add('/requires_drop', 'must be true or false');
  if (changes.defaultVatRateBasisPoints !== undefined) {
    const rate = changes.defaultVatRateBasisPoints;
    if (!Number.isSafeInteger(rate) || rate < 0 || rate > 10_000)
      violations.add('/default_vat_rate', 'must be a percentage from 0 to 100 with at most two decimals');
  }
  if (
    changes.adHocReturnMode !== undefined &&
    changes.adHocReturnMode !== null &&
    !AD_HOC_RETURN_MODES.includes(changes.adHocReturnMode)
  ) {
    violations.add('/ad_hoc_return_mode', `must be null (off) or one of ${AD_HOC_RETURN_MODES.join(', ')}`);
  }
  if (changes.trackingLinkTemplates !== undefined) {
    const templates: unknown = changes.trackingLinkTemplates;
    if (templates === null || typeof templates !== 'object' || Array.isArray(templates)) {
      violations.add('/tracking_link_templates', 'must be an object of carrier code → URL template');
    } else {
      for (const [carrier, template] of Object.entries(templates as Record<string, unknown>)) {
        const pointer = `/tracking_link_templates/${pointerSegment(carrier)}`;
        if (carrier.trim() === '' || carrier.length > MAX_CARRIER_CODE_LENGTH) {
          violations.add(pointer, `is keyed by a carrier code of 1 to ${MAX_CARRIER_CODE_LENGTH} characters`);
        } else if (typeof template !== 'string' || !HTTPS_URL.test(template)) {
          violations.add(pointer, 'must be an https URL');
        } else if (!template.includes('{track_trace}')) {
          violations.add(pointer, 'must contain {track_trace}, where the tracking number goes');
        }
      }
    }
  }
  violations.throwIfAny();

  return deps.uow.run(async (tx) => {
    const current = await loadSettings(tx, input.brandId);
    const updated: BrandSettings = {
      ...current,
      ...(changes.invoicing !== undefined ? { invoicing: changes.invoicing } : {}),
      ...(changes.requiresDrop !== undefined ? { requiresDrop: changes.requiresDrop } : {}),
      ...(changes.defaultVatRateBasisPoints !== undefined
        ? { defaultVatRateBasisPoints: changes.defaultVatRateBasisPoints }
        : {}),
      ...(changes.adHocReturnMode !== undefined ? { adHocReturnMode: changes.adHocReturnMode } : {}),
      ...(changes.trackingLinkTemplates !== undefined
        ? { trackingLinkTemplates: { ...changes.trackingLinkTemplates } }
        : {}),
      brandId: input.brandId,
      updatedAt: deps.clock.now(),
    };
    await tx.settings.save(updated);
    return updated;
  });
}
