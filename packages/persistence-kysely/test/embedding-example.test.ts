// The README's "Embedding the core in another Node service" example is `embedding-example.ts`,
// word for word: the typecheck compiles it (importing only the packages' public entry points, as
// an embedder would) and this test runs it, so the README cannot drift from the real signatures.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { embedTheCore } from './embedding-example';

const HEADING = '### Embedding the core in another Node service';

/** The first `ts` code block under the heading, before the next heading. */
function readmeExample(): string {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
  const section = readme.split(`\n${HEADING}\n`)[1];
  if (section === undefined) throw new Error(`README.md has no "${HEADING}" section`);
  const body = section.split(/\n#{1,3} /)[0]!;
  const block = /\n```ts\n([\s\S]*?\n)```\n/.exec(body);
  if (!block) throw new Error(`README.md has no \`\`\`ts block under "${HEADING}"`);
  return block[1]!;
}

describe('the README embedding example', () => {
  it('is embedding-example.ts, word for word', () => {
    // On a failure: copy test/embedding-example.ts into the README block (or the other way round).
    expect(readmeExample()).toBe(fs.readFileSync(path.join(__dirname, 'embedding-example.ts'), 'utf8'));
  });

  it('runs against a fresh SQLite file and lists the customer it synced', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brand-embedding-'));
    try {
      const customers = await embedTheCore(path.join(dir, 'brand.sqlite'));
      expect(customers.map((c) => [c.customerNumber, c.name, c.currency])).toEqual([['C-1', 'Shop', 'EUR']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
