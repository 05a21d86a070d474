import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve, sep } from 'node:path';
import { loadConfig, stallguardHome } from '../config/load.ts';
import { historyRun, historyRuns, ledgerRuns } from '../review/collect.ts';
import type { Run } from '../review/run.ts';
import { historyRoots } from '../scan/discover.ts';
import { given, readVerdicts, type Verdict, verdictsFile } from '../store/verdicts.ts';
import { fixedAbove, layerFile, layerOf, projectRoot, removeLayer, type Scope, writeLayer } from '../tune/layer.ts';
import { layerContent, settingsOf } from '../tune/settings.ts';
import { tuneText } from '../tune/text.ts';
import { tune } from '../tune/tune.ts';
import { oneOf, parse } from './_args.ts';
import { explainProblems } from './_config.ts';
import { UsageError } from './_errors.ts';
import { errnoText } from '../core/errno.ts';

export const summary = "fit stallguard's settings to your verdicts: before and after on your history";

const HELP = `usage: stallguard tune [--write | --reset] [--scope user|project] [--scan [PATH...]] [--json]

Fits the settings stallguard exposes (each signal's level in the judge, the failure floors and the poll
floor) to the verdicts you gave in stallguard review, with the shipped settings as the starting point: a
couple of verdicts move a setting one step, many move it further, and no setting moves more than three
steps. The seed floors (the same call 5 times, a cycle 5 times round) and the spawn guard are never changed.
It replays your history (the ledger, and with --scan the agents' own history) before and after, and prints
the interventions that stay, go and appear, and how many verdicts each change agrees with. Nothing is saved
without --write.

  --write          save the result as a config layer: STALLGUARD_HOME/tuned.json (--scope user, the
                   default) or .stallguard.tuned.json in this project (--scope project: tuned on the
                   verdicts of this project's sessions); status and doctor show it
  --reset          remove that layer: the settings beneath it are back
  --scan [PATH...] replay the agents' history (or PATH...) too, not only the ledger
  --json           the result as one JSON object

A hand-written config file of the same scope or above wins over the tuned layer: what it sets, tune leaves.
See docs/tuning.md.`;

function inside(dir: string, cwd: string | undefined): boolean {
  if (!cwd) return false;
  const d = resolve(dir);
  const c = resolve(cwd);
  return c === d || c.startsWith(d.endsWith(sep) ? d : d + sep);
}

export function run(argv: string[]): number {
  const { values, positionals } = parse('tune', argv, {
    write: { type: 'boolean' },
    reset: { type: 'boolean' },
    scope: { type: 'string' },
    scan: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const scope = oneOf<Scope>('tune', 'scope', values.scope, ['user', 'project'], 'user');
  if (values.write && values.reset)
    throw new UsageError('tune: --write and --reset do opposite things; give one of them');
  if (positionals.length > 0 && !values.scan)
    throw new UsageError(`tune: paths are read with --scan (got "${positionals[0]}")`);
  for (const p of positionals) if (!existsSync(p)) throw new UsageError(`tune: ${p}: no such file or folder`);
  const cwd = process.cwd();
  const home = stallguardHome();
  const file = layerFile(scope, home, cwd);
  const shownFile = file.startsWith(homedir() + sep) ? '~' + file.slice(homedir().length) : file;

  if (values.reset) {
    const was = loadConfig({ cwd }).tuned.find((t) => t.file === file);
    try {
      if (!removeLayer(file)) {
        console.log(`No tuned settings at ${shownFile}; nothing to remove.`);
        return 0;
      }
    } catch (e) {
      throw new UsageError(`tune: cannot remove ${file}: ${errnoText(e)}`);
    }
    const from = was?.verdicts !== undefined ? ` from ${was.verdicts} verdicts` : '';
    const tuned = was?.date ? ` (tuned ${was.date.slice(0, 10)}${from})` : '';
    console.log(
      `Removed ${shownFile}${tuned}: the settings beneath it are back. ` +
        `Your verdicts are kept in ${verdictsFile(home)}.`,
    );
    return 0;
  }

  const loaded = loadConfig({ cwd });
  explainProblems(loaded.problems);
  const { verdicts: all, unreadableLines } = readVerdicts(home);
  if (unreadableLines > 0)
    console.error(
      `stallguard tune: ${unreadableLines} unreadable ` +
        `line${unreadableLines === 1 ? '' : 's'} in ${verdictsFile(home)} skipped`,
    );
  let verdicts = given(all.values());
  if (scope === 'project') verdicts = verdicts.filter((v) => inside(projectRoot(file), v.cwd));
  if (verdicts.length === 0) {
    const none = scope === 'project' ? `No verdicts on sessions in ${projectRoot(file)} yet` : 'No verdicts yet';
    const text =
      `${none}: tune learns from what you mark right or wrong. Run stallguard review ` +
      `(stallguard review --scan for what it would have done in your agents' past sessions), ` +
      'answer r or w for each intervention, then run stallguard tune again. Nothing was changed.';
    if (values.json) console.log(JSON.stringify({ verdicts: 0, changed: false, message: text }));
    else console.log(text);
    return 0;
  }

  const beneath = loadConfig({ cwd, instead: { file, value: undefined } }).config;
  const fixed = fixedAbove(file, home, cwd);
  const prior = settingsOf(beneath);
  const after = (s: ReturnType<typeof settingsOf>) =>
    loadConfig({ cwd, instead: { file, value: layerContent(prior, s) } }).config;
  const roots = values.scan ? (positionals.length > 0 ? positionals : historyRoots()) : [];
  const result = tune({
    verdicts,
    runs: () => runsOf(home, verdicts, roots),
    before: loaded.config,
    beneath,
    fixed: new Set(fixed.keys()),
    after,
  });

  const layer = layerOf(prior, result.settings.after, {
    date: new Date().toISOString(),
    verdicts: verdicts.length,
    right: result.verdicts.right,
    wrong: result.verdicts.wrong,
    scope,
  });
  if (values.write) {
    try {
      writeLayer(file, layer, scope);
    } catch (e) {
      throw new UsageError(`tune: cannot write ${file}: ${errnoText(e)}`);
    }
  }
  if (values.json) {
    console.log(
      JSON.stringify({
        ...result,
        changes: result.changes.map((c) => ({
          setting: c.knob.name,
          from: c.from,
          to: c.to,
          agrees: c.agrees,
          disagrees: c.disagrees,
        })),
        fixed: Object.fromEntries(fixed),
        layer: { file, scope, content: layer, written: values.write === true },
      }),
    );
    return 0;
  }
  process.stdout.write(tuneText(result));
  const kept = [...fixed].map(([name, from]) => `${name} (${from})`);
  if (kept.length > 0) console.log(`Set by hand, so left as they are: ${kept.join(', ')}.`);
  if (!loaded.config.judge.enabled)
    console.log('The judge is off in your config (judge.enabled): only the floors were tuned.');
  if (values.write)
    console.log(
      `\nSaved to ${shownFile} (${scope} scope): stallguard status and doctor show it as tuned; ` +
        `stallguard tune --reset${scope === 'project' ? ' --scope project' : ''} removes it.`,
    );
  else
    console.log(
      `\nNothing saved. stallguard tune --write${scope === 'project' ? ' --scope project' : ''} ` +
        `saves this to ${shownFile}; stallguard tune --reset removes it again.`,
    );
  return 0;
}

/**
 * The person's history: the ledger, then the agents' history files
 * (those named by verdicts, and with --scan all), each session once.
 */
function* runsOf(home: string, verdicts: readonly Verdict[], roots: string[]): Generator<Run> {
  const ledger = new Set<string>();
  for (const r of ledgerRuns(home)) {
    ledger.add(r.session);
    yield r;
  }
  const files = new Set<string>();
  for (const r of historyRuns(roots)) {
    if (ledger.has(r.session)) continue;
    files.add(r.file);
    yield r;
  }
  for (const v of verdicts) {
    if (v.source !== 'scan' || ledger.has(v.session) || files.has(v.file) || !existsSync(v.file)) continue;
    files.add(v.file);
    const r = historyRun(v.file, v.session);
    if (r) yield r;
  }
}
