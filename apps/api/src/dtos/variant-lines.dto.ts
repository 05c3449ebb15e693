import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MayBeOmitted, NotTogetherWith } from './decorators';

/*
 * What the line-carrying bodies share (orders, partial shipments, credit requests, colli,
 * production orders and receipts, returns): a variant named by sku or ean, and a bounded array of
 * such lines. One definition, so every body words its refusals the same way.
 */

/** Lines per order (and per partial shipment, credit request, return or receipt): one transaction of bounded size. */
export const MAX_ORDER_LINES = 500;

/** A variant by sku or ean (exactly one of them), as every line of these bodies names it. */
export abstract class VariantKeyDto {
  @ValidateIf((line: VariantKeyDto) => line.sku !== undefined || line.ean === undefined)
  @IsString({
    message: (args: ValidationArguments) =>
      args.value === undefined ? 'is required when ean is not sent' : 'must be a string',
  })
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: 'Required when ean is not sent.' })
  sku?: string;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @NotTogetherWith('sku')
  @JSONSchema({ description: 'Required when sku is not sent.' })
  ean?: string;
}

/** The core's variant reference of a line: exactly one of sku and ean (the DTO made sure). */
export const variantKey = (line: VariantKeyDto): { sku: string } | { ean: string } =>
  line.sku !== undefined ? { sku: line.sku } : { ean: line.ean! };

/**
 * `lines`: an array of 1 to `MAX_ORDER_LINES` nested lines of `item`. `description` goes into the
 * OpenAPI document; `emptyMessage` replaces the refusal of an empty array where it needs a hint.
 */
export const lineArray =
  (item: () => new () => object, options: { description?: string; emptyMessage?: string } = {}): PropertyDecorator =>
  (target, key) => {
    // Applied bottom first, as the decorator syntax would apply `@IsArray … @Type … @JSONSchema` written top to bottom.
    if (options.description !== undefined) JSONSchema({ description: options.description })(target, key as string);
    Type(item)(target, key);
    ValidateNested({ each: true })(target, key);
    ArrayMaxSize(MAX_ORDER_LINES, { message: `must contain at most ${MAX_ORDER_LINES} lines` })(target, key);
    ArrayMinSize(1, { message: options.emptyMessage ?? 'must contain at least one line' })(target, key);
    IsArray({ message: 'must be an array of lines' })(target, key);
  };
