// The parse floor of a scan: one thread reading every .jsonl file under a folder with readline and
// JSON.parse on every line, nothing else. `npm run bench` times it beside scan on the same files.
import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

function filesUnder(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else if (e.name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

let lines = 0;
for (const file of filesUnder(process.argv[2])) {
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line.length === 0) continue;
    JSON.parse(line);
    lines++;
  }
}
process.stdout.write(`${lines} lines\n`);
