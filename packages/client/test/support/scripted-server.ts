import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** A request the server received. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the server answers one request: a status with headers and a JSON body, or a dropped connection. */
export type ScriptedAnswer = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop connection';

/**
 * An HTTP server on 127.0.0.1 that answers as the test scripts it and records what it was sent,
 * so the client is tested over real sockets without the API.
 */
export class ScriptedServer {
  readonly requests: ReceivedRequest[] = [];
  private answer: (request: ReceivedRequest, index: number) => ScriptedAnswer = () => ({ status: 500 });

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ScriptedServer> {
    const holder: { scripted?: ScriptedServer } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const received: ReceivedRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        const index = holder.scripted!.requests.push(received) - 1;
        const answer = holder.scripted!.answer(received, index);
        if (answer === 'drop connection') {
          req.socket.destroy();
          return;
        }
        const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
        res.writeHead(answer.status, {
          ...(body ? { 'Content-Type': 'application/json' } : {}),
          'X-Request-Id': `req-${index + 1}`,
          ...answer.headers,
        });
        res.end(body);
      });
    });
    const scripted = new ScriptedServer(server);
    holder.scripted = scripted;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return scripted;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers the requests in order with `answers`; the last one answers every request after. */
  script(...answers: ScriptedAnswer[]): void {
    this.requests.length = 0;
    this.answer = (_, index) => answers[Math.min(index, answers.length - 1)]!;
  }

  /** Answers each request with what `answer` makes of it. */
  respond(answer: (request: ReceivedRequest, index: number) => ScriptedAnswer): void {
    this.requests.length = 0;
    this.answer = answer;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }
}

/** The error envelope of the API, with one error object. */
export function errorBody(status: number, code: string, extra: Record<string, unknown> = {}) {
  return { errors: [{ status, code, title: 'Title', detail: `detail of ${code}`, ...extra }] };
}
