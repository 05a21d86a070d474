import type { Adapter } from '../types.ts';
import { renderPluginAnswer } from '../plugin-answer.ts';
import { parsePi } from './parse.ts';

export const pi: Adapter = { name: 'pi', parse: parsePi, render: renderPluginAnswer };
