/**
 * The test needs modules that no app has been built with yet, so it must not share a module
 * registry with other files (tooling/config/jest-shared-modules.js).
 *
 * @ownModuleRegistry
 */
import { IsInt, IsString, Min } from 'class-validator';
import { FixedClock } from '@brand/core';
import { openTestStorage } from '@brand/persistence-kysely/testing';
import { toDtoInstance } from '../src/http/dto-instance';
import { installValidationFastPath, surelyValid } from '../src/http/validation-fast-path';
import { buildApp } from './support/test-app';

/** A body DTO of this test's own, so that the test does not depend on the API's DTO files. */
class Parcel {
  @IsString()
  reference!: string;

  @IsInt()
  @Min(1)
  weight!: number;
}

const VALID = { reference: 'P-1', weight: 3 };
const INVALID = { reference: 'P-1', weight: 0 };

/** Whether the pre-check confirms a body, so that `validateBody` answers without class-validator's executor. */
const confirmed = (body: Record<string, unknown>): boolean => surelyValid(toDtoInstance(Parcel, body));

/**
 * The pre-check (`validation-fast-path.ts`) is installed by `createApp`, not by importing the
 * validation modules: code that validates bodies without the app installs it itself.
 */
describe('installing the validation pre-check', () => {
  it('is done by createApp, not by importing validation, and then confirms valid bodies only', async () => {
    // This test file's modules are its own: nothing has built an app in them yet.
    expect(confirmed(VALID)).toBe(false);

    const storage = await openTestStorage('sqlite');
    try {
      buildApp(storage, new FixedClock('2026-03-01T09:00:00.000Z'));
    } finally {
      await storage.close();
    }

    expect(confirmed(VALID)).toBe(true);
    expect(confirmed(INVALID)).toBe(false);
  });

  it('changes nothing when installed again, as every app built in one process does', () => {
    installValidationFastPath();
    installValidationFastPath();

    expect(confirmed(VALID)).toBe(true);
    expect(confirmed(INVALID)).toBe(false);
  });
});
