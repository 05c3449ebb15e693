import { InMemoryUnitOfWork, describeIntegrationHealthContract } from '../src/testing';

describeIntegrationHealthContract('in-memory integration health', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
