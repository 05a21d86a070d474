import type { Adapter } from '../types.ts';
import { parseGemini } from './parse.ts';
import { renderGemini } from './render.ts';

export const gemini: Adapter = { name: 'gemini', parse: parseGemini, render: renderGemini };
