// How well each signal alone separates stuck segments from healthy runs: for each signal and value, the
// segments where it reaches that value (at a step inside the segment) against the healthy runs where it
// does anywhere. Where to look before changing a signal.
//
//   npx tsx scripts/judge/separability.ts TRACES_DIR LABELS.jsonl [users|swe]
import type { SignalCode } from '../../src/types.ts';
import { loadLabels, loadTrajectory } from './extract.ts';

const [traces, labels, source] = process.argv.slice(2);
if (!traces || !labels) {
  console.error('usage: tsx scripts/judge/separability.ts TRACES_DIR LABELS.jsonl [users|swe]');
  process.exit(2);
}
const seg = new Map<SignalCode, number[]>();
const healthy = new Map<SignalCode, number[]>();
let segments = 0;
let runs = 0;
for (const label of loadLabels(labels)) {
  const t = loadTrajectory(traces, label, source === 'users' ? 'users' : 'swe');
  for (const s of label.segments) {
    segments++;
    const best: Partial<Record<SignalCode, number>> = {};
    for (const x of t.steps)
      if (x.step >= s.start && x.step <= s.end + 1)
        for (const [c, v] of Object.entries(x.values) as [SignalCode, number][]) best[c] = Math.max(best[c] ?? 0, v);
    for (const [c, v] of Object.entries(best) as [SignalCode, number][]) seg.set(c, [...(seg.get(c) ?? []), v]);
  }
  if (label.overall !== 'healthy') continue;
  runs++;
  const best: Partial<Record<SignalCode, number>> = {};
  for (const x of t.steps)
    for (const [c, v] of Object.entries(x.values) as [SignalCode, number][]) best[c] = Math.max(best[c] ?? 0, v);
  for (const [c, v] of Object.entries(best) as [SignalCode, number][]) healthy.set(c, [...(healthy.get(c) ?? []), v]);
}
console.log(`${segments} segments, ${runs} healthy runs: signal >= value -> segments / healthy runs`);
for (const code of [...new Set([...seg.keys(), ...healthy.keys()])].sort()) {
  const cells: string[] = [];
  for (const v of [2, 3, 4, 5, 6, 8])
    cells.push(
      `>=${v}: ${(seg.get(code) ?? []).filter((x) => x >= v).length}/${(healthy.get(code) ?? []).filter((x) => x >= v).length}`,
    );
  console.log(`${code.padEnd(17)} ${cells.join('  ')}`);
}
