import { InMemoryUnitOfWork, describeIdempotencyContract } from '../src/testing';

describeIdempotencyContract('in-memory idempotency keys', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
