import { InMemoryUnitOfWork, describeEventsContract } from '../src/testing';

describeEventsContract('in-memory events', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
