import { InMemoryUnitOfWork, describeConsoleSessionsContract } from '../src/testing';

describeConsoleSessionsContract('in-memory console sessions', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
