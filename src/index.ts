export type * from './types.ts';
export { ALLOW } from './types.ts';
export { reduce, initialState } from './engine/engine.ts';
export { observation, toStep } from './core/step.ts';
export { DEFAULT_CONFIG } from './config/defaults.ts';
export { replayItems } from './replay/replay.ts';
