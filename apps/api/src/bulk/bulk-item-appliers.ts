import {
  BulkItemApplier,
  BulkItemAppliers,
  BulkLineErrors,
  Clock,
  CustomerSyncItem,
  DomainError,
  ProductSyncItem,
  SupplierSyncItem,
  UnitOfWork,
  syncCustomers,
  syncProducts,
  syncSuppliers,
} from '@brand/core';
import { CustomerSyncItemDto, toCustomerSyncItem } from '../dtos/customer-sync.dto';
import { ProductSyncItemDto, toProductSyncItem } from '../dtos/product-sync.dto';
import { SupplierSyncItemDto, toSupplierSyncItem } from '../dtos/supplier-sync.dto';
import { ApiError } from '../http/api-error';
import { toErrorResponse } from '../http/error-handler';
import { refuseUnsafeJsonBody } from '../http/input-guard';
import { DtoClass, validateBody } from '../http/validate-dto';
import { ImageServices } from '../infrastructure/image-services';

export interface BulkApplierDeps {
  /** The app's sharing unit of work: the syncs join the chunk's transaction through it. */
  uow: UnitOfWork;
  clock: Clock;
  images: ImageServices;
}

/** The error objects of a refusal, as the sync endpoint's error envelope shows them. */
function errorObjectsOf(refusal: unknown): BulkLineErrors {
  // The body limit only words a body-parser error, which a line never raises.
  return toErrorResponse(refusal, '').errors;
}

/**
 * One line → one item of the sync, checked exactly as an item of the sync endpoint's body is (the
 * same DTO class, the same hostile-input guard), then mapped to the core's input as the endpoint
 * maps it.
 */
function lineReader<D extends object, I>(dto: DtoClass<D>, toItem: (item: D) => I): BulkItemApplier<I>['parse'] {
  return async (text) => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return {
        errors: errorObjectsOf(
          new ApiError(400, 'invalid_json', `The line is not valid JSON: ${(error as Error).message}`),
        ),
      };
    }
    try {
      refuseUnsafeJsonBody(json);
      return { item: toItem(await validateBody(dto, json)) };
    } catch (refusal) {
      return { errors: errorObjectsOf(refusal) };
    }
  };
}

/**
 * How each type of bulk operation reads and applies its lines: the sync endpoints' DTOs and use
 * cases, so a line is held to the rules of an item of `POST /products/sync`, `/customers/sync` or
 * `/production/suppliers/sync`, and writes and announces what that sync would.
 */
export function bulkItemAppliers(deps: BulkApplierDeps): BulkItemAppliers {
  const describe = (refusal: DomainError) => errorObjectsOf(refusal);
  const products: BulkItemApplier<ProductSyncItem> = {
    parse: lineReader(ProductSyncItemDto, toProductSyncItem),
    apply: async ({ brandId, userId, items }) =>
      (await syncProducts(deps, { brandId, userId, products: items })).map((outcome) => outcome.id),
    describe,
  };
  const customers: BulkItemApplier<CustomerSyncItem> = {
    parse: lineReader(CustomerSyncItemDto, toCustomerSyncItem),
    apply: async ({ brandId, items }) =>
      (await syncCustomers(deps, { brandId, customers: items })).map((outcome) => outcome.id),
    describe,
  };
  const suppliers: BulkItemApplier<SupplierSyncItem> = {
    parse: lineReader(SupplierSyncItemDto, toSupplierSyncItem),
    apply: async ({ brandId, items }) =>
      (await syncSuppliers(deps, { brandId, suppliers: items })).map((outcome) => outcome.id),
    describe,
  };
  // Each applier is typed by its item; the runner hands back to `apply` only what its `parse` made.
  return {
    'products.sync': products,
    'customers.sync': customers,
    'suppliers.sync': suppliers,
  };
}
