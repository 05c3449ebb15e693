import { InMemoryUnitOfWork, describeReturnsContract } from '../src/testing';

describeReturnsContract('in-memory returns storage', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
