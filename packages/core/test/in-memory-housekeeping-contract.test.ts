import { InMemoryUnitOfWork, describeHousekeepingContract } from '../src/testing';

describeHousekeepingContract('in-memory housekeeping', async () => ({
  uow: new InMemoryUnitOfWork(),
  close: async () => {},
}));
