import {
  BrandSettings,
  CustomerSyncItem,
  DomainError,
  FixedClock,
  OrderChannel,
  OrderType,
  PlaceOrderInput,
  ProductSyncItem,
  VariantSyncItem,
  createBrand,
  createOrderChannel,
  createUser,
  getOrder,
  isDomainError,
  placeOrder,
  syncCustomers,
  syncProducts,
} from '../src';
import { defaultBrandSettings } from '../src/settings/settings.entities';
import { FakeSecretHasher, InMemoryUnitOfWork } from '../src/testing';
import { FakeBlobStore, FakeImageFetcher } from './sync-products.support';

/** Test data for orders and fulfilment: a brand on in-memory storage with a small catalog, customers and channels. */

export const START = '2026-06-01T09:00:00.000Z';

/** A variant priced in EUR (19.99 wholesale, 49.95 retail) with `stock` pieces at the default location. */
export function variant(sku: string, stock: number | null = 10, extra: Partial<VariantSyncItem> = {}): VariantSyncItem {
  return {
    sku,
    attributes: { size: sku.split('-').pop() ?? 'M' },
    prices: { EUR: { salesPrice: '19.99', recSalesPrice: '49.95' } },
    ...(stock !== null ? { inventory: [{ quantity: stock }] } : {}),
    ...extra,
  };
}

/** A product with the given variants (default: `<item>-M` with 10 in stock). */
export function product(itemNumber: string, extra: Partial<ProductSyncItem> = {}): ProductSyncItem {
  return { itemNumber, name: `Product ${itemNumber}`, variants: [variant(`${itemNumber}-M`)], ...extra };
}

export function customer(customerNumber: string, extra: Partial<CustomerSyncItem> = {}): CustomerSyncItem {
  return { customerNumber, name: `Customer ${customerNumber}`, currency: 'EUR', ...extra };
}

export async function setUpShop() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const hasher = new FakeSecretHasher();
  const deps = { uow, clock };
  const brand = await createBrand(deps, { name: 'North Knits', currency: 'EUR' });
  const user = await createUser(deps, { brandId: brand.id, email: 'ops@north.example', name: 'Ops' });
  const images = { fetcher: new FakeImageFetcher(), blobs: new FakeBlobStore() };

  const products = (items: ProductSyncItem[], brandId = brand.id) =>
    syncProducts({ uow, clock, images }, { brandId, products: items });
  const customers = (items: CustomerSyncItem[], brandId = brand.id) =>
    syncCustomers(deps, { brandId, customers: items });
  const channel = (
    orderType: OrderType,
    extra: { autoApprove?: boolean; dropId?: number | null; brandId?: number } = {},
  ) =>
    createOrderChannel(
      { uow, clock, hasher },
      { brandId: extra.brandId ?? brand.id, name: `${orderType} channel`, orderType, ...extra },
    );
  const place = (on: OrderChannel, order: PlaceOrderInput) =>
    placeOrder(deps, { brandId: on.brandId, userId: user.id, channelPublicId: on.publicId, order });
  const settings = (changes: Partial<BrandSettings>, brandId = brand.id) =>
    uow.run((tx) => tx.settings.save({ ...defaultBrandSettings(brandId), ...changes, updatedAt: clock.now() }));
  const variantId = async (sku: string, brandId = brand.id) =>
    (await uow.read((r) => r.products.findVariantsBySkus(brandId, [sku])))[0]!.variant.id;

  /** In stock and available of a SKU over all locations (or at one). */
  const stock = async (sku: string, locationId?: number) => {
    const id = await variantId(sku);
    const balances = await uow.read((r) => r.stock.balances(brand.id, [id], locationId));
    const inStock = balances.reduce((sum, b) => sum + b.inStock, 0);
    return { inStock, available: inStock - balances.reduce((sum, b) => sum + b.reserved, 0) };
  };
  const readOrder = (orderId: number, brandId = brand.id) => getOrder(deps, { brandId, orderId });
  const defaultLocation = async () => (await uow.read((r) => r.inventoryLocations.findDefault(brand.id)))!;

  return {
    uow,
    clock,
    hasher,
    deps,
    brand,
    user,
    products,
    customers,
    channel,
    place,
    settings,
    variantId,
    stock,
    readOrder,
    defaultLocation,
  };
}

/** The violations a refused call names, as pointer → detail. */
export async function violationsOf(outcome: Promise<unknown>): Promise<Record<string, string>> {
  const error = await errorOf(outcome);
  if (error.code !== 'validation_failed')
    throw new Error(`expected validation_failed, got ${error.code}: ${error.message}`);
  return Object.fromEntries(error.violations.map((v) => [v.pointer, v.detail]));
}

/** The DomainError a call was refused with. */
export async function errorOf(outcome: Promise<unknown>): Promise<DomainError> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}
