/** Variants per generated product: one per size. */
export const PRODUCT_VARIANTS = 5;
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];

/**
 * The sync items of products [from, to): each with 5 variants carrying a EUR price and a stock
 * quantity, the catalog the product-sync and bulk-import benchmarks write.
 */
export function productBatch(from: number, to: number) {
  return Array.from({ length: to - from }, (_, i) => {
    const n = from + i + 1;
    return {
      item_number: `P${String(n).padStart(6, '0')}`,
      name: `Product ${n}`,
      description: `Description of product ${n}`,
      variants: SIZES.slice(0, PRODUCT_VARIANTS).map((size, v) => ({
        sku: `P${String(n).padStart(6, '0')}-${size}`,
        attributes: { size, color: 'Black' },
        prices: { EUR: { sales_price: 20 + (n % 50) + v / 100, rec_sales_price: 49.95 } },
        inventory: [{ quantity: (n + v) % 40, text: 'initial stock' }],
      })),
    };
  });
}
