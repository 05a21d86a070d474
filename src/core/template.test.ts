import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { argsTemplate, shellTemplate } from './template.ts';

describe("a call's template", () => {
  it('keeps programs, flags, operators and redirections, and puts every value aside', () => {
    assert.equal(shellTemplate(`psql -d app -c "ALTER TABLE users ADD COLUMN a_at timestamptz"`), 'psql -d _ -c _');
    assert.equal(shellTemplate('cd src && npm install zod 2>&1 | tail -5'), 'cd _ && npm _ _ 2>&1 | tail -5');
    assert.equal(shellTemplate("redis-cli SET 'feature:a' on; redis-cli GET x"), 'redis-cli _ _ _ ; redis-cli _ _');
    assert.equal(shellTemplate('pylint a.py --notes="YES,???" > out.txt'), 'pylint _ --notes="YES,???" > _');
    assert.equal(shellTemplate(`echo "a | b" 'c;d'&&ls`), 'echo _ _ && ls');
  });

  it('tells one thing tried in other ways from one job done to other things', () => {
    const same = (a: string, b: string) => shellTemplate(a) === shellTemplate(b);
    assert.ok(same('redis-cli SET feature:a on', 'redis-cli SET feature:b on'));
    assert.ok(!same('adb devices', 'cmd /c adb devices'));
    assert.ok(!same('docker compose up -d', 'docker compose up -d --force-recreate'));
    assert.ok(!same('npm run lint | tail -20', 'npm run lint | tail -30'));
  });

  it("of a tool's own call, is its arguments' names and shape", () => {
    assert.equal(argsTemplate('{"team":"ENG","title":"Fix login"}'), '{"team":"_","title":"_"}');
    assert.equal(argsTemplate('{"entities":[{"name":"a"}]}'), '{"entities":[{"name":"_"}]}');
    assert.equal(argsTemplate('not json'), '_');
  });
});
