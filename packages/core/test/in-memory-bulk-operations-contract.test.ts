import { InMemoryUnitOfWork, describeBulkOperationsContract } from '../src/testing';

describeBulkOperationsContract('in-memory bulk operations', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
