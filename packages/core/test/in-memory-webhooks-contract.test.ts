import { InMemoryUnitOfWork, describeWebhooksContract } from '../src/testing';

describeWebhooksContract('in-memory webhooks', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
