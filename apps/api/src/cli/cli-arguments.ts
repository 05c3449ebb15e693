import { InvalidArgumentError } from 'commander';

/** Parses a numeric id option (`--brand 3`); anything else is a usage error naming the option. */
export function parseId(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < 1) {
    throw new InvalidArgumentError('must be a positive whole number.');
  }
  return Number(value);
}

const SECONDS_PER_UNIT: Record<string, number> = {
  s: 1,
  m: 60,
  h: 60 * 60,
  d: 24 * 60 * 60,
  w: 7 * 24 * 60 * 60,
  y: 365 * 24 * 60 * 60,
};

/**
 * Parses a token lifetime: plain seconds (`3600`) or a number with a unit, s/m/h/d/w/y
 * (`90m`, `12h`, `30d`, `1y`). Whether the lifetime is acceptable is the use case's call.
 */
export function parseExpiresIn(value: string): number {
  const match = /^(\d+)\s*([smhdwy])?$/i.exec(value.trim());
  if (!match)
    throw new InvalidArgumentError(
      'must be seconds or a number with a unit: s, m, h, d, w or y (e.g. 3600, 12h, 30d, 1y).',
    );
  const seconds = Number(match[1]) * SECONDS_PER_UNIT[(match[2] ?? 's').toLowerCase()]!;
  if (!Number.isSafeInteger(seconds)) throw new InvalidArgumentError('is too long.');
  return seconds;
}

/** Splits `--scopes catalog:read,orders:write` into its scopes; checking them is the use case's job. */
export function parseScopes(value: string): string[] {
  return value
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
}
