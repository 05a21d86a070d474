// Builds dist/: the hook (small CJS files, the hot path), the CLI and the library (ESM, with the
// commands split into chunks loaded on demand), and the library's type declarations.
import { build } from 'esbuild';
import { readFileSync, rmSync, chmodSync, copyFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const define = { __VERSION__: JSON.stringify(pkg.version) };
// mainFields: prefer a package's ESM build; jsonc-parser's "main" is a UMD file whose require() calls
// esbuild cannot follow, which left `stallguard install` failing with "Cannot find module './impl/format'".
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  define,
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync('dist', { recursive: true, force: true });
// the hook: its code (hook-main.cjs) and the small entry that runs it with V8's code cache, named after
// a hash of that code (src/hook/load.ts); the hash heads hook.cjs too, for doctor to check the pair
await build({
  ...common,
  entryPoints: ['src/hook/main.ts'],
  outfile: 'dist/hook-main.cjs',
  format: 'cjs',
  minify: true,
});
// V8 holds a source one byte a character only when every character fits in one: a single character past
// U+00FF (esbuild leaves those of regular expressions as written) doubles the hook's code in memory, twice
// (read, then wrapped as a module), which costs every hook process a garbage collection. And node decodes a
// file of ASCII alone faster than one with a character past it (a third less time to read hook-main.cjs, in
// every hook process). So the hook's code holds ASCII only: anything else is written as an escape.
{
  const text = readFileSync('dist/hook-main.cjs', 'utf8');
  const wide = [...text].find((c) => c.charCodeAt(0) > 0x7f);
  if (wide)
    throw new Error(`dist/hook-main.cjs holds ${wide} (U+${wide.charCodeAt(0).toString(16)}): write it as an escape`);
}
const mainHash = createHash('sha256').update(readFileSync('dist/hook-main.cjs')).digest('hex').slice(0, 16);
const mainLength = readFileSync('dist/hook-main.cjs', 'utf8').length;
await build({
  ...common,
  entryPoints: ['src/hook/load.ts'],
  outfile: 'dist/hook.cjs',
  format: 'cjs',
  minify: true,
  define: { ...define, __HOOK_MAIN_HASH__: JSON.stringify(mainHash), __HOOK_MAIN_LENGTH__: String(mainLength) },
  banner: { js: `// stallguard hook; hook-main.cjs sha256 ${mainHash}` },
});
// the bash first stage that hands a hook event to the daemon without starting node (src/hook/client.sh)
copyFileSync('src/hook/client.sh', 'dist/hook-client.sh');
// Gemini CLI copies an extension's folder on install, so its extension carries its own copy of the hook
for (const f of ['hook.cjs', 'hook-main.cjs']) copyFileSync(`dist/${f}`, `extensions/gemini/${f}`);
await build({
  ...common,
  entryPoints: { cli: 'src/cli/bin.ts', index: 'src/index.ts', 'scan-worker': 'src/scan/scan-worker.ts' },
  outdir: 'dist',
  format: 'esm',
  splitting: true,
  chunkNames: '_[name]-[hash]',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
chmodSync('dist/cli.js', 0o755);
// the in-process plugins: one self-contained ESM file each, loaded by opencode (Bun) and pi (Node, through jiti)
await build({
  ...common,
  entryPoints: { 'opencode-plugin': 'src/plugin/opencode.ts', 'pi-extension': 'src/plugin/pi.ts' },
  outdir: 'dist',
  format: 'esm',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
if (!process.argv.includes('--no-types')) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
