import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDaemonFile } from './daemon-file.ts';
import { ensureDaemon } from './start-daemon.ts';

// The command hook starts the daemon when it finds none, but not on every call while the daemon cannot
// start (a port taken by another program): one attempt every ten seconds.

describe('ensureDaemon', () => {
  it('starts one when none runs, then waits ten seconds before trying again', () => {
    const home = mkdtempSync(join(tmpdir(), 'sg-start-'));
    const cli = join(home, 'no-such-cli.js'); // the attempt itself fails at once: only the bookkeeping is tested here
    assert.ok(ensureDaemon(home, 28999, cli));
    assert.equal(ensureDaemon(home, 28999, cli), undefined);
    const past = (Date.now() - 11_000) / 1000;
    utimesSync(join(home, 'serve.start'), past, past);
    assert.ok(ensureDaemon(home, 28999, cli));
  });

  it('leaves a running daemon alone', () => {
    const home = mkdtempSync(join(tmpdir(), 'sg-start-'));
    writeDaemonFile(home, { pid: process.pid, port: 28999 });
    assert.equal(ensureDaemon(home, 28999, join(home, 'no-such-cli.js')), undefined);
  });
});
