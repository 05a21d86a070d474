// Lists, for a model fitted on all data, the segments it misses and the healthy trajectories it alarms,
// with the signals at the fires: where to look when improving a signal.
import type { Config } from '../../src/types.ts';
import { DEFAULT_CONFIG } from '../../src/config/defaults.ts';
import { loadLabels, loadTrajectory } from './extract.ts';
import { fires } from './score.ts';
import { readFileSync } from 'node:fs';

const [tracesDir, labelsFile, weights] = process.argv.slice(2);
const model = JSON.parse(readFileSync(weights ?? new URL('../../src/judge/weights.json', import.meta.url), 'utf8'));
const config: Config = { ...DEFAULT_CONFIG };
for (const label of loadLabels(labelsFile!)) {
  const t = loadTrajectory(tracesDir!, label);
  const f = fires(t, config, model);
  for (const s of label.segments) {
    if (!f.some((x) => x.step >= s.start && x.step <= s.end + 1)) {
      const best = t.steps
        .filter((x) => x.step >= s.start && x.step <= s.end + 1)
        .map((x) => JSON.stringify(x.values))
        .filter((v) => v !== '{}');
      console.log(`MISS ${label.id} ${s.start}-${s.end} ${s.kind} ${s.confidence}: ${best.slice(-3).join(' ')}`);
    }
  }
  if (label.overall === 'healthy' && f.length > 0)
    console.log(
      `ALARM ${label.id} ${t.outcome}: ${f.map((x) => `${x.action}@${x.step} ${JSON.stringify(t.steps.find((s) => s.step === x.step)?.values)}`).join(' ')}`,
    );
}
