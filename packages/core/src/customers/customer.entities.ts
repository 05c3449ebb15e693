import { Address } from '../addresses/address';

/** A B2B or B2C buyer of a brand, matched by its customer number in syncs. */
export interface Customer {
  id: number;
  brandId: number;
  customerNumber: string;
  name: string;
  /** ISO 4217. */
  currency: string;
  /** Discount in basis points of a percent (12.5 % → 1250). */
  discountBasisPoints: number;
  active: boolean;
  customerGroupId: number | null;
  paymentTermsId: number | null;
  email: string | null;
  telephone: string | null;
  vatNumber: string | null;
  eoriNumber: string | null;
  addresses: Address[];
  createdAt: string;
  updatedAt: string;
}

/** A grouping of customers (price lists, webshop assortments). */
export interface CustomerGroup {
  id: number;
  brandId: number;
  code: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** Terms of payment, referenced by id or by code (its ERP code) in syncs. */
export interface PaymentTerms {
  id: number;
  brandId: number;
  code: string;
  name: string;
  /** Days until payment is due. */
  days: number;
  createdAt: string;
  updatedAt: string;
}
