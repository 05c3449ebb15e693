import { systemClock } from '../src';

describe('systemClock', () => {
  it('tells the current instant as fixed-width ISO-8601 UTC, moving with the time', async () => {
    const before = Date.now();
    const first = systemClock.now();
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(first)).toBeLessThanOrEqual(Date.now());

    // The formatted instant is kept for its millisecond only: a later millisecond reads later.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = systemClock.now();
    expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
    expect(Date.parse(second)).toBeLessThanOrEqual(Date.now());
  });
});
