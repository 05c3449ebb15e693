import {
  InMemoryUnitOfWork,
  describeCustomersContract,
  describeIdentityContract,
  describeListsContract,
  describeSequencesContract,
  describeSuppliersContract,
  describeTransactionsContract,
  sharedContractStorage,
} from '../src/testing';

// The sequences, identity, customers, suppliers, list and transaction suites, on one in-memory storage.
const open = sharedContractStorage(async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
describeSequencesContract('in-memory storage', open);
describeIdentityContract('in-memory storage', open);
describeCustomersContract('in-memory storage', open);
describeSuppliersContract('in-memory storage', open);
describeListsContract('in-memory storage', open);
describeTransactionsContract('in-memory storage', open);
