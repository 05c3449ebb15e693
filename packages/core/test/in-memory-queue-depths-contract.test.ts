import { InMemoryUnitOfWork, describeQueueDepthsContract } from '../src/testing';

describeQueueDepthsContract('in-memory queue depths', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
