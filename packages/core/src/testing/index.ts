/** Test support for code built on @brand/core: in-memory ports and the repository contract suite. */
export * from './in-memory-unit-of-work';
export * from './fake-secret-hasher';
export * from '../listing/in-memory-list';
export * from './repository-contract';
export * from './catalog-contract';
export * from './orders-contract';
export * from './returns-contract';
export * from './production-contract';
