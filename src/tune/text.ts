import { plural } from '../report/format.ts';
import { shown } from './settings.ts';
import type { Group, Shown, TuneResult } from './tune.ts';

// tune's result for a person: the settings that change, and what that does on their own history.

function marked(g: Group): string {
  const parts = [
    g.right ? `${g.right} on stalls you marked right` : '',
    g.wrong ? `${g.wrong} on stalls you marked wrong` : '',
  ].filter(Boolean);
  const rest = g.count - g.right - g.wrong;
  if (rest > 0 && parts.length > 0) parts.push(`${rest} without a verdict`);
  return parts.length ? `  (${parts.join(', ')})` : g.count > 0 ? '  (none with a verdict)' : '';
}

function example(e: Shown): string {
  const where =
    `session ${e.session.slice(0, 12)}${e.agent === 'main' ? '' : ` [${e.agent}]`}` +
    `${e.step >= 0 ? ` call ${e.step + 1}` : ''}`;
  return `${where}: ${e.action} ${e.loop}${e.verdict ? `  (you marked it ${e.verdict})` : ''}`;
}

export function tuneText(r: TuneResult): string {
  const out: string[] = [];
  const n = r.verdicts.right + r.verdicts.wrong;
  out.push(`stallguard tune: ${plural(n, 'verdict')} (${r.verdicts.right} right, ${r.verdicts.wrong} wrong).`);
  if (r.warning) out.push('', `warning: ${r.warning}`);
  out.push('');
  if (r.changes.length === 0)
    out.push(
      'No setting changes: the settings in force agree with your ' +
        'verdicts as well as any that stay near the shipped ones.',
    );
  else {
    const width = Math.max(...r.changes.map((c) => c.knob.name.length), 'setting'.length);
    out.push(`  ${'setting'.padEnd(width)}  now    tuned  verdicts it wins / loses (the other changes made)`);
    for (const c of r.changes)
      out.push(
        `  ${c.knob.name.padEnd(width)}  ${shown(c.from).padEnd(5)}  ${shown(c.to).padEnd(5)}  ` +
          `+${c.agrees} / -${c.disagrees}`,
      );
  }
  out.push('', `Replayed on your history (${plural(r.sessions, 'session')}), before and after:`);
  out.push(`  interventions that stay    ${String(r.stay.count).padStart(4)}${marked(r.stay)}`);
  out.push(`  interventions that go      ${String(r.go.count).padStart(4)}${marked(r.go)}`);
  out.push(`  interventions that appear  ${String(r.appear.count).padStart(4)}${marked(r.appear)}`);
  for (const e of r.go.examples) out.push(`    go:     ${example(e)}`);
  for (const e of r.appear.examples) out.push(`    appear: ${example(e)}`);
  out.push(
    `Your verdicts it agrees with: ${r.agreed.before} ` +
      `of ${r.agreed.of} now, ${r.agreed.after} of ${r.agreed.of} tuned.`,
  );
  if (r.verdicts.recorded > 0)
    out.push(
      `(${plural(r.verdicts.recorded, 'verdict')} on sessions no longer ` +
        'on this machine weighed by the signals recorded with them.)',
    );
  if (r.heldBySeed.length > 0)
    out.push(
      'Still flagged whatever tune does, by the seed floors (the same call 5 times, ' +
        `a cycle 5 times round): ${plural(r.heldBySeed.length, 'stall')} you marked ` +
        `wrong (${[...new Set(r.heldBySeed.map((e) => e.loop))].slice(0, 3).join(', ')}).`,
    );
  return out.join('\n') + '\n';
}
