import { InMemoryUnitOfWork, describeCredentialsContract } from '../src/testing';

describeCredentialsContract('in-memory credentials', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
