import { InventoryRepositories } from '@brand/core';
import { RepositoryFactories } from '../executor';
import { inventoryLocationRepository } from './inventory-location.repositories';
import { stockRepository } from './stock.repositories';

/** The inventory module's repositories, as the unit of work makes them. */
export const inventoryRepositoryFactories: RepositoryFactories<InventoryRepositories> = {
  inventoryLocations: (executor) => inventoryLocationRepository(executor),
  stock: (executor, bound) => stockRepository(executor, bound.ids),
};
