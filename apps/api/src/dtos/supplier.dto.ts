import { JSONSchema } from 'class-validator-jsonschema';
import { NewSupplier, SupplierChanges } from '@brand/core';
import { MayBeOmitted } from './decorators';
import { SupplierFieldsDto, SupplierNumber, toSupplierFields } from './supplier-sync.dto';

// POST and PATCH of /v10/suppliers take the fields of a supplier sync item (SupplierFieldsDto),
// so a body the sync accepts is accepted here, and refused here for the same reasons.

@JSONSchema((schema) => ({
  ...schema,
  title: 'CreateSupplierRequest',
  description: 'A new supplier: the fields of a supplier sync item, without delete.',
  // name and currency are required by the rule every new supplier follows (the core's, shared
  // with the sync), which also names them in its 422; the document says so.
  required: ['supplier_number', 'name', 'currency'],
}))
export class CreateSupplierDto extends SupplierFieldsDto {
  @SupplierNumber()
  @JSONSchema({ description: 'Unique within the brand; a taken number is refused (422).' })
  supplier_number!: string;
}

@JSONSchema({
  title: 'UpdateSupplierRequest',
  description: 'The fields to change, as in a supplier sync item; fields not sent keep their value.',
})
export class UpdateSupplierDto extends SupplierFieldsDto {
  @MayBeOmitted()
  @SupplierNumber()
  @JSONSchema({ description: 'A new number; one another supplier of the brand holds is refused (422).' })
  supplier_number?: string;
}

/** The core's new supplier of a validated `POST /v10/suppliers` body. */
export function toNewSupplier(body: CreateSupplierDto): NewSupplier {
  return { supplierNumber: body.supplier_number, ...toSupplierFields(body) };
}

/** The core's changes of a validated `PATCH /v10/suppliers/{id}` body. */
export function toSupplierChanges(body: UpdateSupplierDto): SupplierChanges {
  return {
    ...(body.supplier_number !== undefined ? { supplierNumber: body.supplier_number } : {}),
    ...toSupplierFields(body),
  };
}
