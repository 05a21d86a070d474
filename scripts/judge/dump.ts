// Writes the signals at every call of every labeled trajectory as JSONL, for exploring them elsewhere.
import { loadLabels, loadTrajectory } from './extract.ts';

const [traces, labels] = process.argv.slice(2);
if (!traces || !labels) {
  console.error('usage: tsx scripts/judge/dump.ts TRACES_DIR LABELS.jsonl > features.jsonl');
  process.exit(2);
}
for (const label of loadLabels(labels)) {
  const t = loadTrajectory(traces, label);
  for (const s of t.steps) console.log(JSON.stringify({ id: label.id, step: s.step, values: s.values }));
}
