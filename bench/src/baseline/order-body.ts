import { pointerToPath } from '@brand/core';
import { Violation, httpErrors } from './http-errors';

/** The part of `PlaceOrderDto` (apps/api/src/dtos/order.dto.ts) the baseline implements. */
export interface OrderBody {
  customerId?: number;
  customerNumber?: string;
  reference: string | null;
  notes: string | null;
  email: string | null;
  telephone: string | null;
  lines: { sku: string; quantity: number }[];
}

/** Fields of the project's order body left out here: sent with a value, they answer 501. */
const NOT_IMPLEMENTED = ['drop_id', 'drop_code', 'currency', 'order_meta'];
/** Left out as well, but null means "not sent" to the project too. */
const NOT_IMPLEMENTED_UNLESS_NULL = [
  'invoice_address',
  'delivery_address',
  'shipping_code',
  'shipping_cost',
  'responsible_person',
];
const OPTIONAL_TEXT: readonly (readonly [key: 'reference' | 'notes' | 'email' | 'telephone', maxLength: number])[] = [
  ['reference', 255],
  ['notes', 5000],
  ['email', 255],
  ['telephone', 64],
];
/** The project's MAX_ORDER_LINES, MAX_ID and MAX_INT32. */
const MAX_LINES = 500;
const MAX_ID = Number.MAX_SAFE_INTEGER;
const MAX_INT32 = 2_147_483_647;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Checks the body by hand, field by field in the order the project's DTO reports them, with the
 * project's wording (class-validator's messages after the path): one violation per field, its
 * type problem when it has one.
 */
export function parseOrderBody(raw: unknown): OrderBody {
  const body = raw === undefined ? {} : raw;
  if (!isObject(body)) throw invalid([{ pointer: '', detail: 'The request body must be a JSON object' }]);
  const order = body['order'];
  if (!isObject(order)) throw invalid([field('/order', order === undefined ? 'is required' : 'must be an object')]);
  for (const key of NOT_IMPLEMENTED)
    if (order[key] !== undefined) throw httpErrors.notImplemented(`the order field ${key}`);
  for (const key of NOT_IMPLEMENTED_UNLESS_NULL)
    if (order[key] !== undefined && order[key] !== null) throw httpErrors.notImplemented(`the order field ${key}`);

  const violations: Violation[] = [];
  const check = (pointer: string, problem: string | null) => {
    if (problem !== null) violations.push(field(pointer, problem));
  };
  const { customer_id: customerId, customer_number: customerNumber } = order;
  if (customerId !== undefined || customerNumber === undefined)
    check(
      '/order/customer_id',
      customerId === undefined ? 'is required when customer_number is not sent' : integerProblem(customerId, 1, MAX_ID),
    );
  if (customerNumber !== undefined)
    check(
      '/order/customer_number',
      textProblem(customerNumber, 1, 64) ??
        (customerId !== undefined ? 'cannot be sent together with customer_id; send one of them' : null),
    );
  for (const [key, maxLength] of OPTIONAL_TEXT)
    if (order[key] !== undefined && order[key] !== null) check(`/order/${key}`, textProblem(order[key], 0, maxLength));

  const lines = order['lines'];
  if (!Array.isArray(lines)) check('/order/lines', 'must be an array of lines');
  else {
    if (lines.length === 0) check('/order/lines', 'must contain at least one line');
    if (lines.length > MAX_LINES) check('/order/lines', `must contain at most ${MAX_LINES} lines`);
    lines.forEach((line: unknown, index) => {
      const at = `/order/lines/${index}`;
      if (!isObject(line)) {
        check(at, 'must be an object');
        return;
      }
      if (line['ean'] !== undefined) throw httpErrors.notImplemented('lines naming their variant by ean');
      // The DTO's own field comes before those it inherits (sku from VariantKeyDto).
      check(`${at}/quantity`, integerProblem(line['quantity'], 1, MAX_INT32));
      check(
        `${at}/sku`,
        line['sku'] === undefined ? 'is required when ean is not sent' : textProblem(line['sku'], 1, 64),
      );
    });
  }
  if (violations.length > 0) throw invalid(violations);

  const text = (key: string) => (order[key] ?? null) as string | null;
  return {
    ...(customerId !== undefined ? { customerId: customerId as number } : {}),
    ...(customerNumber !== undefined ? { customerNumber: customerNumber as string } : {}),
    reference: text('reference'),
    notes: text('notes'),
    email: text('email'),
    telephone: text('telephone'),
    lines: (lines as { sku: string; quantity: number }[]).map(({ sku, quantity }) => ({ sku, quantity })),
  };
}

const field = (pointer: string, problem: string): Violation => ({
  pointer,
  detail: `${pointerToPath(pointer)} ${problem}`,
});

const invalid = (violations: Violation[]) => httpErrors.violations('validation_failed', violations);

function integerProblem(value: unknown, min: number, max: number): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer number';
  if (value < min) return `must not be less than ${min}`;
  if (value > max) return `must not be greater than ${max}`;
  return null;
}

function textProblem(value: unknown, minLength: number, maxLength: number): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length < minLength) return `must be longer than or equal to ${minLength} characters`;
  if (value.length > maxLength) return `must be shorter than or equal to ${maxLength} characters`;
  return null;
}
