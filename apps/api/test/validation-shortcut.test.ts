import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { FixedClock, isDomainError } from '@brand/core';
import { openTestStorage } from '@brand/persistence-kysely/testing';
import { refuseUnsafeJsonBody } from '../src/http/input-guard';
import { toDtoInstance } from '../src/http/dto-instance';
import { installValidationFastPath, surelyValid, uninstallValidationFastPath } from '../src/http/validation-fast-path';
import { DtoClass, validateBody } from '../src/http/validate-dto';
import { RawJson, ValuePool, hostileBody } from './support/hostile-input';
import { fetchOpenApiDocument, operationsOf } from './support/openapi-operations';
import { buildApp } from './support/test-app';

/** Bodies per DTO: the generator's mix of valid bodies, bodies with a hole or two, and riddled ones. */
const BODIES_PER_DTO = 60;
const SEED = 20261124;

/** Every DTO class of the API by name (the OpenAPI document names request bodies by their class). */
function dtoClassesByName(): Map<string, DtoClass> {
  const classes = new Map<string, DtoClass>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.dto.ts')) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the DTO files are found by walking the folder, so no static import can name them
        for (const exported of Object.values(require(path) as Record<string, unknown>)) {
          if (typeof exported === 'function' && /^class /.test(Function.prototype.toString.call(exported)))
            classes.set(exported.name, exported as DtoClass);
        }
      }
    }
  };
  walk(join(__dirname, '..', 'src', 'dtos'));
  return classes;
}

/** What validation says of a body: `valid`, or the violations it names. */
async function verdict(dto: DtoClass, body: unknown): Promise<unknown> {
  try {
    await validateBody(dto, body);
    return 'valid';
  } catch (error) {
    if (isDomainError(error)) return error.violations;
    throw error;
  }
}

/** The pre-check in front of class-validator (as the API runs) or class-validator alone. */
function shortcut(on: boolean): void {
  if (on) installValidationFastPath();
  else uninstallValidationFastPath();
}

/**
 * The pre-check (`validation-fast-path.ts`) confirms valid bodies without class-validator's
 * executor, for speed. This proves it on the installed release: every body DTO of the OpenAPI
 * document validates a generated corpus with the pre-check and with the library alone, and the
 * verdicts are identical, violation for violation; and the pre-check confirms exactly the bodies
 * the library finds valid (a "yes" to an invalid body would let it through; a "not sure" on a
 * valid one would only cost time, and would show a rule mirrored wrong).
 */
describe('the validation shortcut', () => {
  jest.setTimeout(120_000);

  afterAll(() => shortcut(true));

  it("gives exactly the verdicts of class-validator's own executor on valid and invalid bodies of every DTO", async () => {
    const storage = await openTestStorage('sqlite');
    const document = await fetchOpenApiDocument(buildApp(storage, new FixedClock('2026-03-01T09:00:00.000Z')));
    await storage.close();
    const classes = dtoClassesByName();
    const bodyRefs = new Set(
      operationsOf(document)
        .flatMap((operation) => (operation.body ? [operation.body.schema] : []))
        .map((schema) => schema['$ref'] as string),
    );
    expect(bodyRefs.size).toBeGreaterThan(30);

    let valid = 0;
    let invalid = 0;
    for (const ref of [...bodyRefs].sort()) {
      const name = ref.split('/').pop()!;
      const dto = classes.get(name);
      expect({ name, found: dto !== undefined }).toEqual({ name, found: true });
      const corpus = fc
        .sample(hostileBody(document, new ValuePool(), { $ref: ref }), { seed: SEED, numRuns: BODIES_PER_DTO })
        .filter((body) => {
          if (body instanceof RawJson) return false; // refused as unparseable before validation
          try {
            refuseUnsafeJsonBody(body); // too deep, NUL, __proto__: refused before validation too
            return true;
          } catch {
            return false;
          }
        });
      for (const body of corpus) {
        shortcut(true);
        const withShortcut = await verdict(dto!, body);
        const input = body === undefined ? {} : body; // as validateBody reads a missing body
        const isObject = input !== null && typeof input === 'object' && !Array.isArray(input);
        const confirmed = isObject && surelyValid(toDtoInstance(dto!, input as Record<string, unknown>));
        shortcut(false);
        const withoutShortcut = await verdict(dto!, body);
        expect({ dto: name, body, verdict: withShortcut }).toEqual({ dto: name, body, verdict: withoutShortcut });
        expect({ dto: name, body, confirmed }).toEqual({ dto: name, body, confirmed: withoutShortcut === 'valid' });
        if (withShortcut === 'valid') valid += 1;
        else invalid += 1;
      }
    }
    // The corpus holds both kinds, or the comparison would prove little.
    expect(valid).toBeGreaterThan(20);
    expect(invalid).toBeGreaterThan(200);
  });
});
