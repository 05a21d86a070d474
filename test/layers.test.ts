import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { filesUnder } from './support/files.ts';

// The layers of docs/architecture.md lean one way: no folder of src/ imports a folder that imports it back,
// directly or through others. A file at the top of src/ is a layer of its own (index.ts is the top, types.ts
// the ground). Tests are left out: a test may reach across to set up what it proves.

const SRC = resolve('src');

const layerOf = (file: string) => relative(SRC, file).split(sep)[0]!;

/** What each layer imports of the others, with one import that shows it: `engine` -> `judge` via a file. */
function layerImports(files: readonly string[], read: (file: string) => string): Map<string, Map<string, string>> {
  const imports = new Map<string, Map<string, string>>();
  for (const file of files) {
    const from = layerOf(file);
    const seen = imports.get(from) ?? new Map<string, string>();
    imports.set(from, seen);
    const text = read(file);
    for (const m of text.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\s*\(?\s*'(\.[^']+)'/g)) {
      const target = resolve(dirname(file), m[1] ?? m[2]!);
      if (!target.startsWith(SRC + sep)) continue;
      const to = layerOf(target);
      if (to !== from && !seen.has(to)) seen.set(to, `${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  return imports;
}

/** The first circle of layers found, each step with the import that makes it; undefined when there is none. */
function circle(imports: Map<string, Map<string, string>>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (layer: string): string[] | undefined => {
    const at = path.indexOf(layer);
    if (at !== -1) {
      const loop = [...path.slice(at), layer];
      return loop.slice(1).map((to, i) => imports.get(loop[i]!)!.get(to)!);
    }
    if (done.has(layer)) return undefined;
    path.push(layer);
    for (const to of imports.get(layer)?.keys() ?? []) {
      const found = visit(to);
      if (found) return found;
    }
    path.pop();
    done.add(layer);
    return undefined;
  };
  for (const layer of imports.keys()) {
    const found = visit(layer);
    if (found) return found;
  }
  return undefined;
}

describe('the layers of src/', () => {
  it('lean one way: no folder imports one that imports it back', () => {
    const files = filesUnder(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const found = circle(layerImports(files, (f) => readFileSync(f, 'utf8')));
    assert.equal(found, undefined, `layers that import each other:\n  ${found?.join('\n  ')}`);
  });

  it('are told apart by folder, and a circle through two of them is found', () => {
    const text: Record<string, string> = {
      [join(SRC, 'detect/repeat.ts')]: "import type { Entry } from '../engine/state.ts';",
      [join(SRC, 'engine/find-stall.ts')]: "import { repeat } from '../detect/repeat.ts';\nimport './memory.ts';",
      [join(SRC, 'engine/memory.ts')]: "export const m = await import('../types.ts');",
      [join(SRC, 'types.ts')]: '',
    };
    const imports = layerImports(Object.keys(text), (f) => text[f]!);
    assert.deepEqual([...imports.get('engine')!.keys()], ['detect', 'types.ts']);
    assert.deepEqual(circle(imports), [
      `detect${sep}repeat.ts -> engine${sep}state.ts`,
      `engine${sep}find-stall.ts -> detect${sep}repeat.ts`,
    ]);
    delete text[join(SRC, 'detect/repeat.ts')];
    assert.equal(circle(layerImports(Object.keys(text), (f) => text[f]!)), undefined);
  });
});
