import { InMemoryUnitOfWork, describeOAuthContract } from '../src/testing';

describeOAuthContract('in-memory OAuth', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
