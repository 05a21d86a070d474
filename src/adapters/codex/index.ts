import type { Adapter } from '../types.ts';
import { parseCodex } from './parse.ts';
import { renderCodex } from './render.ts';
import { codexDialect } from './dialect.ts';

export const codex: Adapter = { name: 'codex', parse: parseCodex, render: renderCodex, dialect: codexDialect };
