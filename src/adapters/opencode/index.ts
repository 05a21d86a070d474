import type { Adapter } from '../types.ts';
import { renderPluginAnswer } from '../plugin-answer.ts';
import { parseOpencode } from './parse.ts';
import { opencodeDialect } from './dialect.ts';

export const opencode: Adapter = {
  name: 'opencode',
  parse: parseOpencode,
  render: renderPluginAnswer,
  dialect: opencodeDialect,
};
