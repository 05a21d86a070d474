import type { Adapter } from '../types.ts';
import { parseQwen } from './parse.ts';
import { renderQwen } from './render.ts';
import { qwenDialect } from './dialect.ts';

export const qwen: Adapter = { name: 'qwen', parse: parseQwen, render: renderQwen, dialect: qwenDialect };
