import { PaymentTerms } from '@brand/core';
import { Static, Type, component, dateTime, integer, string } from '../http/wire-schema';

export const PaymentTermsSchema = component(
  'PaymentTerms',
  Type.Object({
    id: integer(),
    code: string(),
    name: string(),
    days: integer('Days until payment is due'),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type PaymentTermsWire = Static<typeof PaymentTermsSchema>;

export function presentPaymentTerms(terms: PaymentTerms): PaymentTermsWire {
  return {
    id: terms.id,
    code: terms.code,
    name: terms.name,
    days: terms.days,
    created_at: terms.createdAt,
    updated_at: terms.updatedAt,
  };
}
