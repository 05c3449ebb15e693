import { InMemoryUnitOfWork, describeProductionContract } from '../src/testing';

describeProductionContract('in-memory production storage', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
