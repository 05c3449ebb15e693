import { DomainError, lineTotal } from '../src';
import { documentTotals } from '../src/shared/money';

describe('money arithmetic', () => {
  it('computes a line once, rounding half away from zero', () => {
    expect(lineTotal(3, 1999, 1000)).toBe(5397);
    expect(documentTotals(10000, 2500, false)).toEqual({ netTotal: 10000, vatTotal: 2500, total: 12500 });
    expect(documentTotals(12500, 2500, true)).toEqual({ netTotal: 10000, vatTotal: 2500, total: 12500 });
  });

  it('refuses a line whose total is beyond what stays exact, instead of rounding money', () => {
    // 2^31 − 1 pieces at 10^12 minor units: each value fits its column, the product does not.
    const refused = (() => {
      try {
        lineTotal(2 ** 31 - 1, 1e12, 0);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      code: 'validation_failed',
      violations: [{ pointer: '', detail: expect.stringContaining('more than the 9007199254740991') }],
    });
  });

  it('refuses document totals whose lines added up beyond the exact range, or whose VAT takes them there', () => {
    expect(() => documentTotals(Number.MAX_SAFE_INTEGER + 2, 0, false)).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
    expect(() => documentTotals(Number.MAX_SAFE_INTEGER - 1, 2500, false)).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
    expect(documentTotals(Number.MAX_SAFE_INTEGER - 1, 0, false).total).toBe(Number.MAX_SAFE_INTEGER - 1);
  });
});
