// A hook that records what the agent sends it and says nothing: one JSON line per call in the file named
// by its argument. The payload capture (payload-capture.ts) registers it for every event of a client.
import { appendFileSync, readFileSync } from 'node:fs';

const text = readFileSync(0, 'utf8');
let payload;
try {
  payload = JSON.parse(text);
} catch {
  payload = { unparsed: text };
}
appendFileSync(process.argv[2], JSON.stringify(payload) + '\n');
