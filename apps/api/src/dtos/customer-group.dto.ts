import { IsString, MaxLength, MinLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

@JSONSchema({ title: 'CreateCustomerGroupRequest' })
export class CreateCustomerGroupDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: 'Unique within the brand; syncs refer to the group by it.' })
  code!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name!: string;
}
