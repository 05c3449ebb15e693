/**
 * Whether two strings are equal, taking the same time wherever they differ: every character is
 * compared and the differences are combined, without returning at the first one, so how long a
 * comparison takes tells an attacker nothing about how much of a guess was right. A difference in
 * length answers at once (lengths of hashes are no secret).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
