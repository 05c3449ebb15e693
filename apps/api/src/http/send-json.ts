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
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (json.length < SMALL_ANSWER_CHARACTERS) {
    // Kept a string: Node joins the headers and a string body into one write, where a buffer body
    // goes out as a second chunk of a gathered write (as Express's res.send decides, at the same size).
    res.setHeader('Content-Length', Buffer.byteLength(json));
    res.end(json);
    return;
  }
  // Encoded once: given the string, Node would measure its UTF-8 length again for the last chunk
  // and encode it while writing (two more passes over a 30 KB page of 100 records).
  const bytes = Buffer.from(json);
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

/** Answers shorter than this are written as strings (one write with the headers); longer ones encoded once. */
const SMALL_ANSWER_CHARACTERS = 1000;
