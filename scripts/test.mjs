// Runs every *.test.ts under src/ and test/ with node's test runner (through tsx, since Node 20 cannot
// strip types), then prints the plain `N passed, N failed` line. Extra arguments select files by substring.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

// --unit: everything but the end-to-end tests with real agent CLIs; --e2e: only those.
const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith('-'));
const dirs = args.includes('--e2e') ? ['e2e'] : args.includes('--unit') ? ['src', 'test'] : ['src', 'test', 'e2e'];
const files = dirs
  .filter((d) => existsSync(d))
  .flatMap((d) => find(d))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
// The report page is tested in Debian's chromium and the Prometheus export against Debian's node_exporter.
// Where apt-get can install them (as root, or through sudo without a password: CI, a container) they are
// installed here; elsewhere their tests skip with a line that says how to get them (test/support/needs.ts).
const SYSTEM = [
  { bin: process.env.STALLGUARD_CHROMIUM ?? '/usr/bin/chromium', pkg: 'chromium', test: 'report-html.test' },
  {
    bin: process.env.STALLGUARD_NODE_EXPORTER ?? '/usr/bin/prometheus-node-exporter',
    pkg: 'prometheus-node-exporter',
    test: 'export.test',
  },
];
const packages = SYSTEM.filter((p) => files.some((f) => f.includes(p.test)) && !existsSync(p.bin)).map((p) => p.pkg);
const root = process.getuid?.() === 0;
if (
  packages.length > 0 &&
  existsSync('/usr/bin/apt-get') &&
  (root || spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0)
) {
  console.log(`npm test: installing ${packages.join(' and ')} with apt-get, for the tests that drive them`);
  const [command, pre] = root ? ['apt-get', []] : ['sudo', ['-n', 'apt-get']];
  const apt = (args) =>
    spawnSync(command, [...pre, ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  if (!apt(['update', '-qq']) || !apt(['install', '-y', '-qq', '--no-install-recommends', ...packages]))
    console.log('npm test: apt-get failed; the tests that need these programs say so');
}
// The e2e tests drive real agent CLIs, installed into a cache on first use; install them up front, with
// the full environment, so that the install neither races between test files nor counts against a test.
// A failed preparation fails the run, whatever the tests say afterwards (they still run: the CLIs that did
// install are tested, and the others' tests say what is missing).
let prepareFailed = false;
if (files.some((f) => f.startsWith('e2e'))) {
  const prep = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/prepare.ts'], { stdio: 'inherit' });
  if (prep.status !== 0) {
    prepareFailed = true;
    console.error(
      `e2e: preparing the agent CLIs failed (${prep.error ? prep.error.message : prep.signal ? `killed by ${prep.signal}` : `exit ${prep.status}`}); this run fails whatever the tests below say`,
    );
  }
}
const env = { ...process.env };
// On Node 20 this variable triples the start-up of every node process the tests spawn (../shared/reference/ecosystem.md).
delete env.NODE_EXTRA_CA_CERTS;
const r = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/summary-reporter.mjs',
    '--test-reporter-destination=stdout',
    ...files,
  ],
  { stdio: 'inherit', env },
);
if (prepareFailed) console.error('e2e: this run fails: preparing the agent CLIs failed (see the first lines)');
process.exit(prepareFailed ? 1 : (r.status ?? 1));
