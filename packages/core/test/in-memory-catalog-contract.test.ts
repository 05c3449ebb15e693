import {
  InMemoryUnitOfWork,
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
} from '../src/testing';

// The catalog and inventory suites, on one in-memory storage.
const open = sharedContractStorage(async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
describeCatalogProductsContract('in-memory catalog storage', open);
describeCatalogProductLookupsContract('in-memory catalog storage', open);
describeCatalogProductRemovalContract('in-memory catalog storage', open);
describeCatalogCategoriesContract('in-memory catalog storage', open);
describeCatalogReferenceDataContract('in-memory catalog storage', open);
describeCatalogImagesContract('in-memory catalog storage', open);
describeInventoryStockContract('in-memory catalog storage', open);
describeInventoryAvailableContract('in-memory catalog storage', open);
describeCatalogListsContract('in-memory catalog storage', open);
describeCatalogWriteRacesContract('in-memory catalog storage', open);
