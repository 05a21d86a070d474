import type { Adapter } from '../types.ts';
import { renderPluginAnswer } from '../plugin-answer.ts';
import { parsePi } from './parse.ts';
import { piDialect } from './dialect.ts';

export const pi: Adapter = { name: 'pi', parse: parsePi, render: renderPluginAnswer, dialect: piDialect };
