import { InMemoryUnitOfWork, describeOrdersContract } from '../src/testing';

describeOrdersContract('in-memory orders storage', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
