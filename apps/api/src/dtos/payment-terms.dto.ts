import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

@JSONSchema({ title: 'CreatePaymentTermsRequest' })
export class CreatePaymentTermsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: "The ERP's code; unique within the brand; syncs refer to the terms by it." })
  code!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name!: string;

  @IsInt()
  @Min(0)
  @Max(3650)
  @JSONSchema({ description: 'Days until payment is due.' })
  days!: number;
}
