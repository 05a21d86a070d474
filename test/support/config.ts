import type { Config } from '../../src/types.ts';
import { DEFAULT_CONFIG } from '../../src/config/defaults.ts';
import { mergeConfig } from '../../src/config/validate.ts';
import type { DetectorConfig } from '../../src/library/detector.ts';

/**
 * The seed rule alone: the judge and the failure-count floors off. Tests about what a stall does (how it
 * is told, counted, reported) read its exact counts; the judge and the floors have tests of their own.
 * The same object serves as a config file's content and as settings for an in-process session.
 */
export const SEED_RULE = {
  judge: { enabled: false },
  failRepeat: 1000,
  unchangedFailures: 1000,
  sameFailures: 1000,
} satisfies DetectorConfig;

/** Settings over the defaults, merged and checked the way a config file's are. */
export function configOf(settings: DetectorConfig = {}): Config {
  const { config, problems } = mergeConfig(DEFAULT_CONFIG, settings, 'test settings');
  if (problems.length > 0)
    throw new Error(`bad test settings: ${problems.map((p) => `${p.field} ${p.problem}`).join('; ')}`);
  return config;
}
