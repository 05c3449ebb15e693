import { PaymentTerms } from '@brand/core';

export interface PaymentTermsWire {
  id: number;
  code: string;
  name: string;
  days: number;
  created_at: string;
  updated_at: string;
}

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
