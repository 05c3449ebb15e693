import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The root README's integration section shows code that compiles: each of its TypeScript blocks
 * is a run of lines of examples/readme-integration.ts, which the typecheck compiles against the
 * client. Compared line by line without indentation (the file wraps the blocks in functions),
 * blank lines and imports (the file imports once, from `../src`).
 */
const README = join(__dirname, '../../../README.md');
const EXAMPLES = join(__dirname, '../examples/readme-integration.ts');

const codeLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('import '));

function integrationBlocks(): string[][] {
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf('\n## Integrating with `@brand/client`');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => codeLines(match[1]!));
}

describe("the README's integration section", () => {
  const examples = codeLines(readFileSync(EXAMPLES, 'utf8'));
  const blocks = integrationBlocks();

  it('has the four blocks: create, a write with retries, a list walk, a webhook receiver', () => {
    expect(blocks).toHaveLength(4);
    expect(
      blocks.map((block) => block.find((line) => /createClient\(|POST\(|paginate\(|verifyWebhook\(/.test(line))),
    ).toEqual([
      expect.stringContaining('createClient('),
      expect.stringContaining("POST('/v10/order-channels/{publicId}/orders'"),
      expect.stringContaining('paginate('),
      expect.stringContaining('verifyWebhook('),
    ]);
  });

  it('shows each block exactly as examples/readme-integration.ts has it', () => {
    for (const block of blocks) {
      const at = examples.findIndex((_, i) => block.every((line, j) => examples[i + j] === line));
      expect({ block, found: at >= 0 }).toEqual({ block, found: true });
    }
  });

  it('keeps the webhook receiver within 20 lines, its imports included', () => {
    const readme = readFileSync(README, 'utf8');
    const receiver = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].find((match) =>
      match[1]!.includes('verifyWebhook('),
    )!;
    expect(receiver[1]!.split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(20);
  });
});
