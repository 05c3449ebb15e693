import { InMemoryUnitOfWork, describeCrossBrandReferencesContract } from '../src/testing';

describeCrossBrandReferencesContract('in-memory cross-brand references', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
