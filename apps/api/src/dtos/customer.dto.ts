import { JSONSchema } from 'class-validator-jsonschema';
import { CustomerChanges, NewCustomer } from '@brand/core';
import { CustomerFieldsDto, CustomerNumber, toCustomerFields } from './customer-sync.dto';
import { MayBeOmitted } from './decorators';

// POST and PATCH of /v10/customers take the fields of a customer sync item (CustomerFieldsDto),
// so a body the sync accepts is accepted here, and refused here for the same reasons.

@JSONSchema((schema) => ({
  ...schema,
  title: 'CreateCustomerRequest',
  description: 'A new customer: the fields of a customer sync item, without delete.',
  // name and currency are required by the rule every new customer follows (the core's, shared
  // with the sync), which also names them in its 422; the document says so.
  required: ['customer_number', 'name', 'currency'],
}))
export class CreateCustomerDto extends CustomerFieldsDto {
  @CustomerNumber()
  @JSONSchema({ description: 'Unique within the brand; a taken number is refused (422).' })
  customer_number!: string;
}

@JSONSchema({
  title: 'UpdateCustomerRequest',
  description: 'The fields to change, as in a customer sync item; fields not sent keep their value.',
})
export class UpdateCustomerDto extends CustomerFieldsDto {
  @MayBeOmitted()
  @CustomerNumber()
  @JSONSchema({ description: 'A new number; one another customer of the brand holds is refused (422).' })
  customer_number?: string;
}

/** The core's new customer of a validated `POST /v10/customers` body. */
export function toNewCustomer(body: CreateCustomerDto): NewCustomer {
  return { customerNumber: body.customer_number, ...toCustomerFields(body) };
}

/** The core's changes of a validated `PATCH /v10/customers/{id}` body. */
export function toCustomerChanges(body: UpdateCustomerDto): CustomerChanges {
  return {
    ...(body.customer_number !== undefined ? { customerNumber: body.customer_number } : {}),
    ...toCustomerFields(body),
  };
}
