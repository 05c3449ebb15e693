import { Type } from 'class-transformer';
import { IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

@JSONSchema({ title: 'LegacyCategoryFields' })
export class LegacyCategoryFieldsDto {
  @IsString()
  @MaxLength(255)
  @JSONSchema({
    description: 'Unique (in any letter case) among the categories of the same parent; error 40001 otherwise.',
  })
  name!: string;
}

@JSONSchema({
  title: 'LegacyCategoryRequest',
  description:
    'Body of POST /api/categories, POST /api/categories/{parentCategoryId}/categories and PUT /api/categories/{categoryId}.',
})
export class LegacyCategoryRequestDto {
  @IsObject()
  @ValidateNested()
  @Type(() => LegacyCategoryFieldsDto)
  category!: LegacyCategoryFieldsDto;
}
