import { accessSync, constants, mkdirSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { Browser, Page, chromium } from 'playwright-core';

/**
 * How long a page waits for an element, a navigation or a load before failing. Far above what an
 * idle machine needs (a few hundred ms) so a busy 2-core machine never trips it, and below jest's
 * 60 s so a stuck step fails with Playwright's message naming what it waited for.
 */
const PAGE_TIMEOUT_MS = 45_000;

/** Where `saveScreenshot` writes: the repository's docs/screenshots. */
const SCREENSHOT_DIR = resolve(__dirname, '../../../../docs/screenshots');

/** The executable names of the distributions' Chromium packages: Debian's, then Ubuntu's. */
const CHROMIUM_NAMES = ['chromium', 'chromium-browser'];

/**
 * The system Chromium: `CHROMIUM_PATH` if set, else the first of `chromium`, `chromium-browser`
 * on PATH. Throws, naming what is missing, when there is none: the browser tests fail then,
 * they are never skipped.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = env.CHROMIUM_PATH
    ? [env.CHROMIUM_PATH]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .flatMap((dir) => CHROMIUM_NAMES.map((name) => join(dir, name)));
  const found = candidates.find(isExecutable);
  if (found) return found;
  throw new Error(
    env.CHROMIUM_PATH
      ? `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file`
      : 'Chromium not found: neither `chromium` nor `chromium-browser` is on PATH. The browser tests need a ' +
          "system Chromium (no browser is downloaded): `npm test` installs Debian's chromium package through " +
          'tooling/scripts/ensure-chromium.sh; run that script, or `apt-get install chromium`, or set CHROMIUM_PATH.',
  );
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface BrowserHarness {
  /** The browser, once `beforeAll` ran. */
  readonly browser: Browser;
  /**
   * A page in a context of its own (no cookies or storage shared with other pages), with the
   * generous default timeout; closed with the browser in `afterAll`.
   */
  newPage(): Promise<Page>;
}

/**
 * One headless system Chromium for the test file: launched in `beforeAll`, closed in `afterAll`.
 * Launching costs about a second, so the tests of a file share it and isolate themselves by
 * context (`newPage`).
 */
export function useBrowser(): BrowserHarness {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: findChromium(),
      headless: true,
      // The tests run as root, where Chromium refuses to start with its sandbox. (Playwright's
      // default too; said here so nobody turns it on and wonders why the launch fails.)
      chromiumSandbox: false,
      timeout: PAGE_TIMEOUT_MS,
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  const launched = (): Browser => {
    if (!browser) throw new Error('The browser is not launched yet: use it inside a test or a hook');
    return browser;
  };
  return {
    get browser() {
      return launched();
    },
    async newPage() {
      const context = await launched().newContext();
      context.setDefaultTimeout(PAGE_TIMEOUT_MS);
      context.setDefaultNavigationTimeout(PAGE_TIMEOUT_MS);
      return context.newPage();
    },
  };
}

/**
 * Saves a PNG of the page as docs/screenshots/<name>.png when `SCREENSHOTS=1` (the whole page
 * unless `fullPage: false` keeps it to the viewport, for long pages); otherwise does nothing, so
 * ordinary test runs leave the committed screenshots alone. Returns the path written, if any.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string | undefined> {
  if (process.env.SCREENSHOTS !== '1') return undefined;
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name))
    throw new Error(`Screenshot name "${name}" must be kebab-case (a-z, 0-9, hyphens)`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
