import type { Adapter } from '../types.ts';
import { renderPluginAnswer } from '../plugin-answer.ts';
import { parseOpencode } from './parse.ts';

export const opencode: Adapter = { name: 'opencode', parse: parseOpencode, render: renderPluginAnswer };
