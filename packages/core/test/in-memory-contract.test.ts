import { InMemoryUnitOfWork, describeRepositoryContract } from '../src/testing';

describeRepositoryContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
