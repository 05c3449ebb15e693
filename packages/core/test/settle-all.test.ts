import { settleAll } from '../src';

describe('settleAll', () => {
  it('resolves with every value in order, like Promise.all', async () => {
    await expect(settleAll([Promise.resolve(1), Promise.resolve('two'), 3])).resolves.toEqual([1, 'two', 3]);
  });

  it('rejects with the first failure only after the slower siblings have finished', async () => {
    let finishSlow!: () => void;
    let slowFinished = false;
    const slow = new Promise<void>((resolve) => (finishSlow = resolve)).then(() => {
      slowFinished = true;
    });
    let settled = false;
    const all = settleAll([
      Promise.reject(new Error('first failure')),
      slow,
      Promise.reject(new Error('second failure')),
    ]).finally(() => {
      settled = true;
    });

    // Plenty of turns for a Promise.all to have rejected already.
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
    expect(settled).toBe(false);

    finishSlow();
    await expect(all).rejects.toThrow('first failure');
    expect(slowFinished).toBe(true);
  });
});
