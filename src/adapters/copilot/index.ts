import type { Adapter } from '../types.ts';
import { parseCopilot } from './parse.ts';
import { renderCopilot } from './render.ts';
import { copilotDialect } from './dialect.ts';

export const copilot: Adapter = {
  name: 'copilot',
  parse: parseCopilot,
  render: renderCopilot,
  dialect: copilotDialect,
};
