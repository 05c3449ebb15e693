import {
  describeCatalogCategoriesContract,
  describeCatalogImagesContract,
  describeCatalogListsContract,
  describeCatalogProductLookupsContract,
  describeCatalogProductRemovalContract,
  describeCatalogProductsContract,
  describeCatalogReferenceDataContract,
  describeCatalogWriteRacesContract,
  describeInventoryAvailableContract,
  describeInventoryStockContract,
  sharedContractStorage,
} from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The catalog and inventory suites the in-memory adapter passes, on every dialect of this run, one
// database per dialect.
for (const dialect of testDialects()) {
  const name = `Kysely catalog [${dialect}]`;
  const open = sharedContractStorage(() => openTestStorage(dialect));
  describeCatalogProductsContract(name, open);
  describeCatalogProductLookupsContract(name, open);
  describeCatalogProductRemovalContract(name, open);
  describeCatalogCategoriesContract(name, open);
  describeCatalogReferenceDataContract(name, open);
  describeCatalogImagesContract(name, open);
  describeInventoryStockContract(name, open);
  describeInventoryAvailableContract(name, open);
  describeCatalogListsContract(name, open);
  describeCatalogWriteRacesContract(name, open);
}
