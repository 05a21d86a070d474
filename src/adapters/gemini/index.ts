import type { Adapter } from '../types.ts';
import { parseGemini } from './parse.ts';
import { renderGemini } from './render.ts';
import { geminiDialect } from './dialect.ts';

export const gemini: Adapter = { name: 'gemini', parse: parseGemini, render: renderGemini, dialect: geminiDialect };
