import { createHash } from 'node:crypto';

/** A short, stable digest: 64 bits of sha256 are plenty to tell calls apart within one session. */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
