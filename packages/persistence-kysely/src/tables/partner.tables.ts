/** Row types of customers, suppliers and what they reference. */
export interface CustomersTable {
  id: number;
  brand_id: number;
  customer_number: string;
  name: string;
  currency: string;
  discount_basis_points: number;
  active: number;
  customer_group_id: number | null;
  payment_terms_id: number | null;
  email: string | null;
  telephone: string | null;
  vat_number: string | null;
  eori_number: string | null;
  created_at: string;
  updated_at: string;
}

/** Shared shape of customer and supplier addresses; `owner_id` is the customer or supplier. */
export interface AddressesTable {
  id: number;
  brand_id: number;
  owner_id: number;
  position: number;
  title: string;
  name: string;
  address: string;
  address_2: string | null;
  zip: string;
  city: string;
  region: string | null;
  country: string;
  remote_erp_id: string | null;
}

export interface CustomerGroupsTable {
  id: number;
  brand_id: number;
  code: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface PaymentTermsTable {
  id: number;
  brand_id: number;
  code: string;
  name: string;
  days: number;
  created_at: string;
  updated_at: string;
}

export interface SuppliersTable {
  id: number;
  brand_id: number;
  supplier_number: string;
  name: string;
  currency: string;
  active: number;
  email: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../database' {
  /** The customers and suppliers tables. */
  interface Database {
    customers: CustomersTable;
    customer_addresses: AddressesTable;
    customer_groups: CustomerGroupsTable;
    payment_terms: PaymentTermsTable;
    suppliers: SuppliersTable;
    supplier_addresses: AddressesTable;
  }
}
