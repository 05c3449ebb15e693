import { CliCommand } from '../cli-command';
import { CliEnv } from '../open-cli-context';
import { demoCurlLine, describeDemo, seedDemo } from '../demo';

interface DemoOptions {
  baseUrl?: string;
}

/** Where the server listens by default, for the printed curl line. */
function defaultBaseUrl(env: CliEnv): string {
  const port = env.PORT?.trim();
  return `http://localhost:${port && /^\d+$/.test(port) ? port : '3000'}`;
}

/** `brand demo [--base-url <url>]`: creates a new demo brand with sample data and prints its credentials. */
export const demoCommand: CliCommand<DemoOptions> = {
  name: 'demo',
  summary: 'Create a demo brand with sample data and a token; prints a ready curl line',
  configure(command) {
    command.option(
      '--base-url <url>',
      'where the API is reachable, for the curl line (default: http://localhost:$PORT)',
    );
  },
  async run({ storage, clock, hasher, passwordHasher, env }, options) {
    const baseUrl = options.baseUrl ?? defaultBaseUrl(env);
    const demo = await seedDemo({ uow: storage.uow, clock, hasher, passwordHasher });
    return {
      json: {
        brand_id: demo.brandId,
        user_id: demo.userId,
        email: demo.email,
        password: demo.password,
        app_id: demo.appId,
        client_id: demo.clientId,
        app_key: demo.appKey,
        token_id: demo.tokenId,
        access_token: demo.accessToken,
        expires_at: demo.expiresAt,
        scopes: demo.scopes,
        seeded: demo.seeded,
        curl: demoCurlLine(demo, baseUrl),
      },
      text: describeDemo(demo, baseUrl).join('\n'),
    };
  },
};
