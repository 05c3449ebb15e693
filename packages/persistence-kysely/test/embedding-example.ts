import { createBrand, listCustomers, syncCustomers, systemClock } from '@brand/core';
import type { Customer } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';

/**
 * Opens the database at `databaseUrl` (a SQLite file, `sqlite:<path>`, `:memory:` or
 * `postgres://…`), brings its schema up to date, makes a brand, syncs one customer into it and
 * returns the brand's customers, as another Node service would embed the core.
 */
export async function embedTheCore(databaseUrl: string): Promise<Customer[]> {
  const storage = await openStorage(databaseUrl);
  try {
    await storage.migrate();
    const deps = { uow: storage.uow, clock: systemClock };
    const brand = await createBrand(deps, { name: 'Acme', currency: 'EUR' });
    await syncCustomers(deps, {
      brandId: brand.id,
      customers: [{ customerNumber: 'C-1', name: 'Shop', currency: 'EUR' }],
    });
    const { page } = await listCustomers(deps, { brandId: brand.id, query: { limit: 50 } });
    return page.items;
  } finally {
    await storage.close();
  }
}
