import { ClientOptions, createClient } from '../../src';

/**
 * A client whose waits are recorded instead of slept, so retry tests never depend on the clock,
 * and whose jitter is fixed at its midpoint.
 */
export function recordingClient(baseUrl: string, options: Partial<ClientOptions> = {}) {
  const waits: number[] = [];
  const client = createClient({
    baseUrl,
    accessToken: 'token-1',
    appKey: 'app-key-1',
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { client, waits };
}
