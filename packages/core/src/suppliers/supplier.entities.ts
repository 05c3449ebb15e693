import { Address } from '../addresses/address';

/** A maker or vendor of goods; production orders are placed with suppliers. */
export interface Supplier {
  id: number;
  brandId: number;
  supplierNumber: string;
  name: string;
  /** ISO 4217. */
  currency: string;
  active: boolean;
  email: string | null;
  addresses: Address[];
  createdAt: string;
  updatedAt: string;
}
