import { Response } from 'express';

/**
 * Writes `body` as the JSON answer with `status`: what `res.status(status).json(body)` writes here
 * (the project sets no JSON replacer or spacing and no ETag), without the content-type parsing and
 * charset negotiation `res.json` repeats on every answer. A HEAD request gets the headers only, as
 * Node's HTTP server drops the body of an answer to HEAD.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
