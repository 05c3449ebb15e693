import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { COLLECTION_VISIBILITIES, CreateCollectionInput } from '@brand/core';
import { IsId, MayBeOmitted } from '../decorators';

@JSONSchema({ title: 'LegacyCollectionFields' })
export class LegacyCollectionFieldsDto {
  @IsString()
  @MaxLength(255)
  title!: string;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Default true.' })
  active?: boolean;

  @MayBeOmitted()
  @IsString()
  @IsIn([...COLLECTION_VISIBILITIES])
  @JSONSchema({
    description:
      'Who may view the products: own_entity (every customer of the brand, the default) or customers_custom (only allowed_customers).',
  })
  visibility?: string;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsId({ each: true })
  @JSONSchema({ description: 'Ids of customers of the brand; used when visibility is customers_custom. Default [].' })
  allowed_customers?: number[];
}

@JSONSchema({ title: 'LegacyCollectionRequest', description: 'Body of POST /api/collections.' })
export class LegacyCollectionRequestDto {
  @IsObject()
  @ValidateNested()
  @Type(() => LegacyCollectionFieldsDto)
  collection!: LegacyCollectionFieldsDto;
}

/** The core command for a validated body. */
export function toCreateCollectionInput(brandId: number, body: LegacyCollectionRequestDto): CreateCollectionInput {
  const { title, active, visibility, allowed_customers } = body.collection;
  return {
    brandId,
    title,
    ...(active !== undefined ? { active } : {}),
    ...(visibility !== undefined ? { visibility } : {}),
    ...(allowed_customers !== undefined ? { allowedCustomerIds: allowed_customers } : {}),
  };
}
