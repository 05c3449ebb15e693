import { Client } from 'pg';

/** The server's URL with another database in its path. */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `work` on a connection of its own to `url` (creating and dropping databases, mostly). */
export async function withAdminClient<T>(url: string, work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
