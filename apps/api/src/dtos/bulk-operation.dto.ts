import { IsIn } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { BULK_OPERATION_TYPES, BulkOperationType } from '@brand/core';

/** The query of `POST /v10/bulk-operations`: which sync each line of the body is an item of. */
export class BulkOperationQueryDto {
  @IsIn(BULK_OPERATION_TYPES, { message: `$property must be one of ${BULK_OPERATION_TYPES.join(', ')}` })
  @JSONSchema({
    type: 'string',
    enum: [...BULK_OPERATION_TYPES],
    description:
      'The sync each line is an item of: a product with its variants (POST /products/sync), a customer ' +
      '(POST /customers/sync) or a supplier (POST /production/suppliers/sync).',
  })
  type!: BulkOperationType;
}
