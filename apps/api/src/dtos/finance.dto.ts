import { JSONSchema } from 'class-validator-jsonschema';
import { ArticleQuantityDto, toArticleQuantity } from './order.dto';
import { MayBeOmitted } from './decorators';
import { lineArray } from './variant-lines.dto';

@JSONSchema({
  title: 'CreditInvoiceRequest',
  description:
    'The body is optional: without lines, everything of the invoice not yet credited is credited (shipping included).',
})
export class CreditInvoiceDto {
  @MayBeOmitted()
  @lineArray(() => ArticleQuantityDto, {
    description:
      'Pieces to credit per variant; never more than invoiced minus what other credit notes of the invoice credit already.',
    emptyMessage: 'must contain at least one line; leave lines out to credit the whole invoice',
  })
  lines?: ArticleQuantityDto[];
}

/** The lines of the core command, or undefined for "credit everything not yet credited". */
export function toCreditLines(body: CreditInvoiceDto): { sku?: string; ean?: string; quantity: number }[] | undefined {
  return body.lines?.map(toArticleQuantity);
}
