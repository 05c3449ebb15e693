import {
  describeCustomersContract,
  describeIdentityContract,
  describeListsContract,
  describeSequencesContract,
  describeSuppliersContract,
  describeTransactionsContract,
  sharedContractStorage,
} from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The sequences, identity, customers, suppliers, list and transaction suites the in-memory adapter
// passes, on every dialect of this run, one database per dialect.
for (const dialect of testDialects()) {
  const name = `Kysely repositories [${dialect}]`;
  const open = sharedContractStorage(() => openTestStorage(dialect));
  describeSequencesContract(name, open);
  describeIdentityContract(name, open);
  describeCustomersContract(name, open);
  describeSuppliersContract(name, open);
  describeListsContract(name, open);
  describeTransactionsContract(name, open);
}
