/**
 * Public tracking pages of common carriers, by carrier code as warehouses send it in
 * `POST /3pl/shipments/deliver`; `{track_trace}` stands for the colli's tracking number. A
 * brand's own templates (settings `tracking_link_templates`) add carriers and override these.
 */
export const BUILT_IN_TRACKING_LINK_TEMPLATES: Readonly<Record<string, string>> = {
  postnord: 'https://tracking.postnord.com/se/?id={track_trace}',
  gls: 'https://gls-group.eu/track/{track_trace}',
  dhl: 'https://www.dhl.com/global-en/home/tracking/tracking-parcel.html?submit=1&tracking-id={track_trace}',
  dhl_express: 'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={track_trace}',
  ups: 'https://www.ups.com/track?tracknum={track_trace}',
  dpd: 'https://tracking.dpd.de/status/en_US/parcel/{track_trace}',
  bring: 'https://tracking.bring.com/tracking/{track_trace}',
  dao: 'https://www.dao.as/privat/find-din-pakke?stregkode={track_trace}',
  fedex: 'https://www.fedex.com/fedextrack/?trknbr={track_trace}',
  usps: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={track_trace}',
};

export const TRACK_TRACE_PLACEHOLDER = '{track_trace}';

function ownValue(record: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/**
 * The tracking link of a colli: the brand's template for the carrier, else the built-in one,
 * with the tracking number put in (URL-encoded); null without a tracking number or a template.
 * Carrier codes compare without regard to case.
 *
 * @example trackingLinkFor('UPS', '1Z999', {}) // 'https://www.ups.com/track?tracknum=1Z999'
 */
export function trackingLinkFor(
  carrier: string,
  trackTrace: string | null,
  templates: Record<string, string>,
): string | null {
  const number = trackTrace?.trim() ?? '';
  if (number === '') return null;
  const code = carrier.trim().toLowerCase();
  // Own keys only: a carrier is free text from a 3PL, and `templates['constructor']` or
  // `templates['toString']` would otherwise find Object's functions and crash on `split`.
  const own =
    ownValue(templates, carrier) ?? Object.entries(templates).find(([key]) => key.trim().toLowerCase() === code)?.[1];
  const template = own ?? ownValue(BUILT_IN_TRACKING_LINK_TEMPLATES, code);
  return template ? template.split(TRACK_TRACE_PLACEHOLDER).join(encodeURIComponent(number)) : null;
}
