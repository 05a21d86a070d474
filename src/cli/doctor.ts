import { runDoctor } from '../doctor/doctor.ts';
import { parseOptions } from './_args.ts';

export const summary = 'what is wrong with this setup, and how to fix it';

const HELP = `usage: stallguard doctor [--json]

Checks that stallguard can do its job here: STALLGUARD_HOME writable, the config files valid, the hooks
installed and pointing at a node and a hook file that exist, the hook answering a sample call in a sane
time, recent errors in errors.log, NODE_EXTRA_CA_CERTS on Node 20, git. Each problem comes with a fix.
Exits 1 when something is broken, 0 otherwise.`;

export function run(argv: string[]): number {
  const { values } = parseOptions('doctor', argv, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const checks = runDoctor(process.cwd(), process.env);
  const failed = checks.filter((c) => c.status === 'fail').length;
  if (values.json) {
    console.log(JSON.stringify({ ok: failed === 0, checks }));
    return failed === 0 ? 0 : 1;
  }
  for (const c of checks) {
    console.log(`  ${c.status.padEnd(4)}  ${c.area.padEnd(8)}  ${c.detail}`);
    if (c.fix) console.log(`  ${''.padEnd(4)}  ${''.padEnd(8)}  fix: ${c.fix}`);
  }
  const warned = checks.filter((c) => c.status === 'warn').length;
  console.log(
    failed + warned === 0
      ? 'stallguard doctor: all good'
      : `stallguard doctor: ${failed} problem${failed === 1 ? '' : 's'}, ${warned} warning${warned === 1 ? '' : 's'}`,
  );
  return failed === 0 ? 0 : 1;
}
