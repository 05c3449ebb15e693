import { CatalogRepositories } from '@brand/core';
import { RepositoryFactories } from '../executor';
import { categoryRepository } from './category.repositories';
import { collectionRepository } from './collection.repositories';
import { costPriceSetRepository } from './cost-price-set.repositories';
import { dropRepository } from './drop.repositories';
import { productImageRepository } from './product-image.repositories';
import { productLocaleRepository } from './product-locale.repositories';
import { productRepository } from './product.repositories';
import { subbrandRepository } from './subbrand.repositories';

/** The catalog module's repositories, as the unit of work makes them. */
export const catalogRepositoryFactories: RepositoryFactories<CatalogRepositories> = {
  products: (executor) => productRepository(executor),
  categories: (executor) => categoryRepository(executor),
  collections: (executor) => collectionRepository(executor),
  subbrands: (executor) => subbrandRepository(executor),
  drops: (executor) => dropRepository(executor),
  costPriceSets: (executor) => costPriceSetRepository(executor),
  productLocales: (executor) => productLocaleRepository(executor),
  productImages: (executor) => productImageRepository(executor),
};
