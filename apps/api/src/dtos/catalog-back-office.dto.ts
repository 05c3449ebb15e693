import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

@JSONSchema({ title: 'CreateDropRequest' })
export class CreateDropDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({
    description: 'Unique within the brand; orders and the product sync refer to the drop by it (drop_code).',
  })
  code!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name!: string;
}

@JSONSchema({ title: 'CreateInventoryLocationRequest' })
export class CreateInventoryLocationDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @JSONSchema({ description: "The brand's first location becomes its default (is_default: true); later ones do not." })
  name!: string;
}

@JSONSchema({ title: 'CreateProductLocaleRequest' })
export class CreateProductLocaleDto {
  @IsString()
  @MinLength(1)
  @MaxLength(35)
  @Matches(/^\S+$/, { message: '$property must not contain spaces' })
  @JSONSchema({
    description:
      'Language code such as de or en-GB; unique within the brand; translations refer to it as product_locale_code.',
  })
  code!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name!: string;
}

@JSONSchema({ title: 'CreateSubbrandRequest' })
export class CreateSubbrandDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name!: string;
}
