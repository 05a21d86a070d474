import { spawnSync } from 'node:child_process';

// Ports handed out for `listen(0)` come from the kernel's ephemeral range (32768-60999 on Linux). A port found
// there and closed again can be handed to the next server any test starts on port 0 (a fake model's, say)
// before the daemon binds it, and the install then rightly refuses it as taken. So a daemon's port is drawn from
// below that range, where no `listen(0)` lands, and tried before it is handed out.
const FIND =
  "const net = require('net'); const pick = () => 20000 + Math.floor(Math.random() * 12768);" +
  "const tryPort = (n) => { const s = net.createServer(); s.once('error', () => tryPort(pick()));" +
  "s.listen(n, '127.0.0.1', () => { console.log(n); s.close(); }); }; tryPort(pick());";

/** A port nothing listens on now, and one no server started on port 0 will be given. */
export function freePort(): number {
  const port = Number(spawnSync(process.execPath, ['-e', FIND], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error('no free port found for a daemon');
  return port;
}
