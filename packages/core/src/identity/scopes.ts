/** Areas a token can be allowed to read or write. */
export const SCOPE_AREAS = [
  'catalog',
  'customers',
  'orders',
  'fulfilment',
  'returns',
  'finance',
  'production',
  'settings',
] as const;
export type ScopeArea = (typeof SCOPE_AREAS)[number];
export type Scope = `${ScopeArea}:${'read' | 'write'}`;

export const ALL_SCOPES: Scope[] = SCOPE_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`] as Scope[]);

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as string[]).includes(value);
}

/** The scopes of `required` that `granted` lacks. A write scope does not imply read: each is asked for by name. */
export function missingScopes(granted: readonly Scope[], required: readonly Scope[]): Scope[] {
  return required.filter((scope) => !granted.includes(scope));
}
