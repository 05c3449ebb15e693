import { ProductionRepositories } from '@brand/core';
import { RepositoryFactories } from '../executor';
import { deliveryNoteRepository } from './delivery-note.repositories';
import { productionOrderRepository } from './production-order.repositories';

/** The production module's repositories, as the unit of work makes them. */
export const productionRepositoryFactories: RepositoryFactories<ProductionRepositories> = {
  productionOrders: (executor) => productionOrderRepository(executor),
  deliveryNotes: (executor) => deliveryNoteRepository(executor),
};
