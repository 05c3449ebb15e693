import { InMemoryUnitOfWork, describeCatalogContract } from '../src/testing';

describeCatalogContract('in-memory catalog storage', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
