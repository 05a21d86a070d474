import type { Adapter } from '../types.ts';
import { parseCopilot } from './parse.ts';
import { renderCopilot } from './render.ts';

export const copilot: Adapter = { name: 'copilot', parse: parseCopilot, render: renderCopilot };
