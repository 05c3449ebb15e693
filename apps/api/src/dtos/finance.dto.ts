import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { ArticleQuantityDto, MAX_ORDER_LINES, toArticleQuantity } from './orders.dto';
import { MayBeOmitted } from './decorators';

@JSONSchema({ title: 'CreditInvoiceRequest', description: 'The body is optional: without lines, everything of the invoice not yet credited is credited (shipping included).' })
export class CreditInvoiceDto {
  @MayBeOmitted()
  @IsArray()
  @ArrayMinSize(1, { message: 'must contain at least one line; leave lines out to credit the whole invoice' })
  @ArrayMaxSize(MAX_ORDER_LINES, { message: `must contain at most ${MAX_ORDER_LINES} lines` })
  @ValidateNested({ each: true })
  @Type(() => ArticleQuantityDto)
  @JSONSchema({ description: 'Pieces to credit per variant; never more than invoiced minus what other credit notes of the invoice credit already.' })
  lines?: ArticleQuantityDto[];
}

/** The lines of the core command, or undefined for "credit everything not yet credited". */
export function toCreditLines(body: CreditInvoiceDto): { sku?: string; ean?: string; quantity: number }[] | undefined {
  return body.lines?.map(toArticleQuantity);
}
