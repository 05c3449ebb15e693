import { Response } from 'express';

/**
 * Writes `body` as the JSON answer with `status`: what `res.status(status).json(body)` writes here
 * (the project sets no JSON replacer or spacing and no ETag), without the content-type parsing and
 * charset negotiation `res.json` repeats on every answer. A HEAD request gets the headers only, as
 * Node's HTTP server drops the body of an answer to HEAD.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/** `sendJson` for an answer already written as JSON (its tag was taken from these very characters). */
export function sendJsonText(res: Response, status: number, json: string): void {
  // Encoded once: given the string, Node would measure its UTF-8 length again for the last chunk
  // and encode it while writing (two more passes over a 30 KB page of 100 records).
  const bytes = Buffer.from(json);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}
