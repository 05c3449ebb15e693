/**
 * @brand/core — the framework-free domain of the Brand commerce platform.
 *
 * Use cases are plain async functions taking their ports first (`{ uow, clock, hasher }`) and a
 * command second. Storage is reached only through `UnitOfWork` and the repositories it binds to
 * a transaction; `@brand/persistence-kysely` provides them for SQLite and Postgres, and
 * `@brand/core/testing` an in-memory set for tests.
 */
export * from './shared/errors';
export * from './shared/settle-all';
export * from './shared/clock.ports';
export * from './shared/sequences.ports';
export * from './shared/unit-of-work.ports';
export * from './shared/state-machine';
export * from './shared/decimal';
export * from './shared/codes';
export * from './shared/reference';
export * from './shared/sync-outcome';

export * from './listing/list-query';
export * from './listing/validate-list-query';
export * from './listing/page';
export * from './listing/run-list';

export * from './addresses/address';

export * from './identity/scopes';
export * from './identity/identity.entities';
export * from './identity/identity.ports';
export * from './identity/create-brand';
export * from './identity/create-user';
export * from './identity/create-api-app';
export * from './identity/issue-access-token';
export * from './identity/revoke-access-token';
export * from './identity/verify-access-token';
export * from './identity/record-requests';

export * from './customers/customer.entities';
export * from './customers/customer.ports';
export * from './customers/customer.list-definitions';
export * from './customers/sync-customers';
export * from './customers/list-customers';
export * from './customers/list-customer-groups';
export * from './customers/list-payment-terms';
export * from './customers/create-customer-group';
export * from './customers/create-payment-terms';

export * from './suppliers/supplier.entities';
export * from './suppliers/supplier.ports';
export * from './suppliers/supplier.list-definitions';
export * from './suppliers/sync-suppliers';
export * from './suppliers/list-suppliers';

export * from './catalog/catalog.entities';
export * from './catalog/catalog.ports';
export * from './catalog/image-storage.ports';
export * from './catalog/catalog.list-definitions';

export * from './inventory/inventory.entities';
export * from './inventory/inventory.ports';
export * from './inventory/ensure-default-location';
export * from './catalog/download-images';

export * from './catalog/list-products';
export * from './catalog/get-product';
export * from './catalog/list-variants';
export * from './catalog/get-variant';
export * from './catalog/create-drop';
export * from './catalog/list-drops';
export * from './catalog/create-product-locale';
export * from './catalog/list-product-locales';
export * from './catalog/create-subbrand';
export * from './inventory/list-available-stock';
export * from './inventory/create-inventory-location';
export * from './inventory/list-inventory-locations';
export * from './catalog/product-images-matching';
export * from './catalog/sync-product-images';
export * from './catalog/product-sync.input';
export * from './catalog/sync-products';

export * from './catalog/legacy/legacy.helpers';
export * from './catalog/legacy/legacy-category.helpers';
export * from './catalog/legacy/legacy-product.helpers';
export * from './catalog/legacy/list-categories';
export * from './catalog/legacy/get-category';
export * from './catalog/legacy/create-category';
export * from './catalog/legacy/update-category';
export * from './catalog/legacy/delete-category';
export * from './catalog/legacy/list-collections';
export * from './catalog/legacy/get-collection';
export * from './catalog/legacy/create-collection';
export * from './catalog/legacy/list-legacy-products';
export * from './catalog/legacy/get-legacy-product';
export * from './catalog/legacy/create-legacy-product';
export * from './catalog/legacy/update-legacy-product';
export * from './catalog/legacy/delete-legacy-product';
export * from './catalog/legacy/create-legacy-variant';
export * from './catalog/legacy/update-legacy-variant';
export * from './catalog/legacy/delete-legacy-variant';
export { newProduct, newVariant } from './catalog/product-sync-merge';

export * from './shared/money';
export * from './settings';
export * from './documents';
export * from './orders';
export * from './fulfilment';
export * from './finance';

export * from './production';
export * from './returns';
