import { parseExpiresIn, parseId, parseScopes } from '../../src/cli/cli-arguments';

describe('brand CLI arguments', () => {
  it('reads --expires-in as seconds or as a number with a unit', () => {
    expect(parseExpiresIn('3600')).toBe(3600);
    expect(parseExpiresIn('90m')).toBe(90 * 60);
    expect(parseExpiresIn('12h')).toBe(12 * 3600);
    expect(parseExpiresIn('30d')).toBe(30 * 86400);
    expect(parseExpiresIn('2w')).toBe(14 * 86400);
    expect(parseExpiresIn('1y')).toBe(365 * 86400);
  });

  it('refuses a lifetime it cannot read', () => {
    for (const value of ['', 'soon', '1.5d', '-1d', '30 days', 'd'])
      expect(() => parseExpiresIn(value)).toThrow(/must be seconds or a number with a unit/);
  });

  it('reads ids as positive whole numbers only', () => {
    expect(parseId('42')).toBe(42);
    for (const value of ['0', '-1', '1.5', 'abc', '99999999999999999999'])
      expect(() => parseId(value)).toThrow(/positive whole number/);
  });

  it('splits scopes on commas and ignores blanks', () => {
    expect(parseScopes('catalog:read, orders:write,,')).toEqual(['catalog:read', 'orders:write']);
  });
});
