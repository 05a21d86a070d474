import { digest } from './digest.ts';

// Ids come from payloads (session, agent and prompt ids) and are stored with every observation and in
// every checkpoint of the state: an agent that sent a 10 MB id would make every later line 10 MB.

const MAX = 128;

/** The id itself when short; otherwise its start and a digest of the whole, so distinct ids stay distinct. */
export function boundedId(id: string): string {
  return id.length <= MAX ? id : `${id.slice(0, 100)}…${digest(id)}`;
}
