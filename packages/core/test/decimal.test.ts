import { MONEY_SCALE, formatDecimal, parseDecimal } from '../src';

describe('exact decimals', () => {
  it('reads a price as whole cents', () => {
    expect(parseDecimal(19.99, MONEY_SCALE)).toBe(1999);
    expect(parseDecimal('19.99', MONEY_SCALE)).toBe(1999);
    expect(parseDecimal(0.29, MONEY_SCALE)).toBe(29);
    expect(parseDecimal(1.005, 3)).toBe(1005);
  });

  it('reads whole numbers, fewer decimals and trailing zeros', () => {
    expect(parseDecimal(20, 2)).toBe(2000);
    expect(parseDecimal('7.5', 2)).toBe(750);
    expect(parseDecimal('12.50', 2)).toBe(1250);
    expect(parseDecimal('1.2300', 2)).toBe(123);
    expect(parseDecimal(' 3.10 ', 2)).toBe(310);
    expect(parseDecimal(0, 2)).toBe(0);
  });

  it('adds amounts without the float errors of 0.1 + 0.2', () => {
    const sum = parseDecimal(0.1, 2)! + parseDecimal(0.2, 2)!;

    expect(sum).toBe(30);
    expect(formatDecimal(sum, 2)).toBe(0.3);
  });

  it('refuses a float sum that is not the decimal it looks like', () => {
    expect(parseDecimal(0.1 + 0.2, 2)).toBeNull();
  });

  it('refuses more decimals than the scale allows', () => {
    expect(parseDecimal(1.234, 2)).toBeNull();
    expect(parseDecimal('1.234', 2)).toBeNull();
    expect(parseDecimal('0.001', 2)).toBeNull();
  });

  it('refuses values that are not finite decimals', () => {
    for (const value of [
      NaN,
      Infinity,
      -Infinity,
      '12abc',
      'abc',
      '',
      ' ',
      '1,5',
      '1.2.3',
      '1e3',
      '0x10',
      '.5',
      '5.',
      '+5',
      '--1',
      true,
      null,
      undefined,
      {},
      [1],
    ]) {
      expect(parseDecimal(value, 2)).toBeNull();
    }
  });

  it('reads negative amounts', () => {
    expect(parseDecimal(-19.99, 2)).toBe(-1999);
    expect(parseDecimal('-0.5', 2)).toBe(-50);
    expect(Object.is(parseDecimal('-0', 2), 0)).toBe(true);
    expect(formatDecimal(-1999, 2)).toBe(-19.99);
  });

  it('reads numbers JavaScript would print with an exponent', () => {
    expect(parseDecimal(1e-7, 7)).toBe(1);
    expect(parseDecimal(1e-7, 2)).toBeNull();
    expect(parseDecimal(1.5e-6, 7)).toBe(15);
  });

  it('refuses amounts beyond the safe integer range', () => {
    expect(parseDecimal('90071992547409.92', 2)).toBeNull();
    expect(parseDecimal(1e21, 0)).toBeNull();
    expect(parseDecimal('90071992547409.91', 2)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('renders scaled integers as the decimal they stand for', () => {
    expect(formatDecimal(1999, 2)).toBe(19.99);
    expect(JSON.stringify(formatDecimal(1999, 2))).toBe('19.99');
    expect(formatDecimal(30, 2)).toBe(0.3);
    expect(formatDecimal(1250, 2)).toBe(12.5);
    expect(formatDecimal(1, 7)).toBe(1e-7);
  });

  it('round-trips every cent amount from 0 to 100.00', () => {
    const broken = Array.from({ length: 10_001 }, (_, cents) => cents).filter(
      (cents) => parseDecimal(formatDecimal(cents, 2), 2) !== cents,
    );

    expect(broken).toEqual([]);
  });
});
