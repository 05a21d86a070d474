import type { Adapter } from '../types.ts';
import { parseClaude } from './parse.ts';
import { renderClaude } from './render.ts';
import { claudeDialect } from './dialect.ts';

export const claude: Adapter = { name: 'claude', parse: parseClaude, render: renderClaude, dialect: claudeDialect };
