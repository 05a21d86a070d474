// The working-tree fingerprint on a very large repository (`npm run bench`): 100 000 committed files,
// 3 000 of them changed, 20 of those past the read cap, 2 000 untracked. It runs inside the hook after
// every failing test run, so what matters is the hook's whole time there, beside a run outside any repo.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GIT_TIMEOUT_MS, treeFingerprint } from '../src/hook/tree.ts';

// the hook processes timed here run without NODE_EXTRA_CA_CERTS: its 80 ms per node start on Node 20 is not the hook's
const HOOK = resolve('dist/hook.cjs');
const FILES = 100_000;

const root = mkdtempSync(join(tmpdir(), 'sg-bench-repo-'));
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', ...args], {
    cwd: root,
    stdio: 'pipe',
    maxBuffer: 1 << 28,
  });
const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1]!;
const time = (f: () => unknown, n: number) =>
  median(Array.from({ length: n }, () => ((s: number) => (f(), performance.now() - s))(performance.now())));

try {
  process.stdout.write(`building a repository of ${FILES} files in ${root} ... `);
  git('init', '-q');
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(root, `src/m${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(root, `src/m${d}/f${f}.ts`), `export const v${f} = ${d};\n`);
  }
  git('add', '-A');
  git('commit', '-qm', 'init');
  for (let i = 0; i < 3000; i++)
    appendFileSync(
      join(root, `src/m${(i * 7) % 1000}/f${i % 100}.ts`),
      i % 150 === 0 ? 'x'.repeat(2 << 20) : `// ${i}\n`,
    );
  mkdirSync(join(root, 'scratch'));
  for (let i = 0; i < 2000; i++) writeFileSync(join(root, `scratch/n${i}.txt`), `${i}\n`);
  console.log('done');

  const status = time(
    () =>
      spawnSync('git', ['status', '--porcelain=v2', '-z', '--untracked-files=normal'], {
        cwd: root,
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
      }),
    5,
  );
  const fingerprint = time(() => treeFingerprint(root), 5);
  const payload = (cwd: string) =>
    JSON.stringify({
      hook_event_name: 'PostToolUseFailure',
      session_id: 'bench',
      cwd,
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      error: 'Exit code 1\n1 failed',
      tool_use_id: 't',
      prompt_id: 'p',
      transcript_path: '/dev/null',
    });
  const home = mkdtempSync(join(tmpdir(), 'sg-bench-home-'));
  const env = { PATH: process.env.PATH, HOME: home, STALLGUARD_HOME: home, STALLGUARD_MODE: 'shadow' };
  const hook = (cwd: string) => time(() => spawnSync(process.execPath, [HOOK], { input: payload(cwd), env }), 9);
  const inRepo = hook(root);
  const outside = hook(home);
  rmSync(home, { recursive: true, force: true });

  console.log(
    `\nworking-tree fingerprint, ${FILES} files, 3 000 changed and 2 000 untracked (median ms; git times out at ${GIT_TIMEOUT_MS} ms)\n`,
  );
  console.log(`git status alone                         ${status.toFixed(0).padStart(6)}`);
  console.log(`treeFingerprint (git + stat + read)      ${fingerprint.toFixed(0).padStart(6)}`);
  console.log(`hook process, failing npm test, in repo  ${inRepo.toFixed(0).padStart(6)}`);
  console.log(`hook process, same call, outside a repo  ${outside.toFixed(0).padStart(6)}`);
} finally {
  // a git the hook killed at its timeout may still be writing its index lock: retry the removal
  rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
