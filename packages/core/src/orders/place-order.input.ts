import { Meta } from '../catalog/catalog.entities';
import { OrderAddress, ResponsiblePerson, ShippingCode } from './order.entities';
import { VariantLineInput } from './variant-lines';

/**
 * The body of `POST /v10/order-channels/{publicId}/orders` (`order`), of the right JSON types
 * (the API checked shapes); everything that needs data is checked here. Amounts in minor units.
 */
export interface PlaceOrderInput {
  customerId?: number;
  customerNumber?: string;
  dropId?: number;
  dropCode?: string;
  /** Default: the customer's currency on B2B, the brand's on B2C. */
  currency?: string;
  reference?: string | null;
  notes?: string | null;
  email?: string | null;
  telephone?: string | null;
  /** Default: a copy of the customer's first address. */
  invoiceAddress?: OrderAddress | null;
  deliveryAddress?: OrderAddress | null;
  shippingCode?: ShippingCode | null;
  /** In the order's VAT basis (net on B2B, incl. VAT on B2C). */
  shippingCost?: number | null;
  responsiblePerson?: ResponsiblePerson | null;
  orderMeta?: Meta;
  lines: VariantLineInput[];
}
