import type { Adapter } from '../types.ts';
import { parseCursor } from './parse.ts';
import { renderCursor } from './render.ts';
import { cursorDialect } from './dialect.ts';

export const cursor: Adapter = { name: 'cursor', parse: parseCursor, render: renderCursor, dialect: cursorDialect };
