import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { filesUnder } from './support/files.ts';

const WIDTH = 120;

/** Every line of `text` wider than WIDTH, as `file:line: width`. */
function overWidth(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => ([...line].length > WIDTH ? [`${file}:${i + 1}: ${[...line].length} columns`] : []));
}

// CI runs what npm test runs: the formatting and the lint rules of biome.json (warnings fail too, an unused
// import as much as a floating promise), and the line width the formatter cannot enforce on a long string,
// regex or comment.
describe('the code', () => {
  it('is formatted and lint-clean by biome.json', () => {
    const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
    const r = spawnSync(
      process.execPath,
      [biome, 'ci', '--error-on-warnings', '--colors=off', '--max-diagnostics=50', '.'],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, `biome ci found:\n${r.stdout}${r.stderr}`);
  });

  it(`has no line in src/ over ${WIDTH} columns`, () => {
    const long = filesUnder('src').flatMap((f) => overWidth(f, readFileSync(f, 'utf8')));
    assert.deepEqual(long, [], long.join('\n'));
  });

  it('counts columns by characters, not bytes', () => {
    assert.deepEqual(overWidth('a.ts', `${'█'.repeat(WIDTH)}\n${'x'.repeat(WIDTH + 1)}`), ['a.ts:2: 121 columns']);
  });
});
