import type { Adapter } from '../types.ts';
import { parseQwen } from './parse.ts';
import { renderQwen } from './render.ts';

export const qwen: Adapter = { name: 'qwen', parse: parseQwen, render: renderQwen };
