import type { Config } from '../types.ts';

export const DEFAULT_CONFIG: Config = {
  mode: 'shadow',
  window: 25,
  repeat: 5,
  pollRepeat: 10,
  cycleRepeats: 5,
  maxCycle: 5,
  stopAfterStalls: 2,
  spawnCap: 10,
  orchestrators: [],
  stopAfterRefusals: 2,
  exemptTools: [],
  verifyBeforeStop: false,
  chant: 5,
  judge: { enabled: true, threshold: 0.5, stopThreshold: 0.5, denyThreshold: 0.9 },
};
