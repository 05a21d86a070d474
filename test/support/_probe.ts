// probes: the described misses, reconstructed, and what the detector makes of them
import { Session } from './session.ts';
const out: Record<string, string[]> = {};
{
  const s = new Session(); s.prompt('find the docs page');
  for (const p of ['docs/api', 'docs/v2/api', 'api/docs', 'reference', 'docs/reference/api', 'v1/docs', 'developer/api', 'docs/rest', 'api-docs', 'docs/api/v3', 'help/api', 'docs/latest/api'])
    s.call('WebFetch', { url: `https://example.com/${p}`, prompt: 'find the endpoint list' }, 'Request failed with status code 404', false);
  out['dozen guessed URLs, 404'] = s.timeline;
}
{
  const s = new Session(); s.prompt('find a library');
  for (const q of ['rust crate parse toml comments preserve', 'rust toml preserve comments library', 'toml_edit keep comments rust', 'rust toml round trip comments', 'crate toml comment preserving parser', 'rust edit toml file keep formatting'])
    s.call('WebSearch', { query: q }, 'No results found.', true);
  out['web searches, no results, reworded'] = s.timeline;
}
{
  const s = new Session(); s.prompt('read the changelog');
  const page = 'Changelog\n\nVersion 2.3.0\n- Fixed a crash on start\n- Faster builds\n\nVersion 2.2.0\n- New config format';
  for (const pr of ['what changed in 2.4', 'list changes in version 2.4', 'find the 2.4 release notes', 'does it mention 2.4.0?', 'summarise the latest version changes'])
    s.call('WebFetch', { url: 'https://example.com/changelog', prompt: pr }, `The page lists versions 2.3.0 and 2.2.0 only; nothing about 2.4. ${page.length}`, true);
  out['WebFetch same page, reworded prompts'] = s.timeline;
}
{
  const s = new Session(); s.prompt('find the config');
  for (const g of ['src/config/*.yaml', 'src/**/*.yaml', '**/*.yaml', '**/*.{yaml,yml}'])
    s.call('Glob', { pattern: g }, 'No files found', true);
  out['glob widened three times'] = s.timeline;
}
{
  const s = new Session(); s.prompt('seed the database');
  for (let i = 0; i < 4; i++) {
    s.bash('psql -c "DELETE FROM users WHERE email = \'a@b.c\'"', 'DELETE 0', true);
    s.bash('psql -c "INSERT INTO users (id, email) VALUES (1, \'a@b.c\')"', 'ERROR:  duplicate key value violates unique constraint "users_pkey"\nDETAIL:  Key (id)=(1) already exists.', false);
  }
  out['delete-then-recreate, duplicate key each round'] = s.timeline;
}
{
  const s = new Session(); s.prompt('remove the blank lines');
  const file = 'line one\n\n\nline two\n\n\nline three';
  const read = () => s.call('Read', { file_path: '/home/dev/proj/notes.txt' }, { type: 'text', file: { filePath: '/home/dev/proj/notes.txt', content: file } }, true);
  read();
  s.bash("awk 'NF' notes.txt > notes.tmp && mv notes.tmp notes.txt", '', true); read();
  s.bash("sed -i '/^$/d' notes.txt", '', true); read();
  s.bash("python3 -c \"import re;p='notes.txt';t=open(p).read();open(p,'w').write(re.sub(r'\\n\\s*\\n','\\n',t))\"", '', true); read();
  s.bash("perl -i -ne 'print if /\\S/' notes.txt", '', true); read();
  out['edit that never takes effect, reads show the same'] = s.timeline;
}
for (const [k, v] of Object.entries(out)) console.log(k.padEnd(50), v.join(' ') || '(nothing)');
