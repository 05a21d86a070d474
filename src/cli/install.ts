import { existsSync, unlinkSync } from 'node:fs';
import { relative } from 'node:path';
import type { AgentName } from '../types.ts';
import { AGENTS } from '../hook/run-hook.ts';
import { lineDiff, readText, writeTextAtomic } from '../install/files.ts';
import { hookCommand } from '../install/hook-command.ts';
import { addRules, removeRules } from '../install/rules-block.ts';
import type { InstallTarget, Scope } from '../install/target.ts';
import { TARGETS } from '../install/targets.ts';
import { codexTomlTarget } from '../install/codex-toml.ts';
import { defaultPort, hookUrl, parsePort } from '../serve/address.ts';
import { loadConfig, stallguardHome } from '../config/load.ts';
import { RULES_TEXT } from './rules.ts';
import { oneOf, parse } from './_args.ts';
import { UsageError } from './_errors.ts';

export const summary = 'register the hook with an agent';

const HELP = `usage: stallguard install [--agent ${AGENTS.join('|')}] [--scope project|user] [--config-toml] [--rules] [--daemon [--port N]] [--dry-run]

Registers stallguard's hook in the agent's settings (default: Claude Code, this project):

  claude    .claude/settings.json       (user: ~/.claude/settings.json)
  codex     .codex/hooks.json           (user: $CODEX_HOME/hooks.json, default ~/.codex)
            with --config-toml: [[hooks.*]] tables at the end of .codex/config.toml instead
  gemini    .gemini/settings.json       (user: ~/.gemini/settings.json)
  cursor    .cursor/hooks.json          (user: ~/.cursor/hooks.json)
  copilot   .github/hooks/stallguard.json (user: $COPILOT_HOME/hooks/stallguard.json, default ~/.copilot)
  qwen      .qwen/settings.json         (user: $QWEN_HOME/settings.json, default ~/.qwen)

Idempotent: running it again updates the command in place. Every other setting and comment in the file is
kept. --rules also adds the stallguard rule to the agent's instruction file (CLAUDE.md, AGENTS.md,
GEMINI.md). --dry-run prints the change and writes nothing.

--daemon (Claude Code, POSIX): also registers an http hook to \`stallguard serve\` on 127.0.0.1 (port
${defaultPort()} for this user, or --port N), which answers in about a millisecond instead of a node start
per call. The command hook stays beside it as the fallback: it runs node only when the daemon is not up,
and then starts it. Running install again without --daemon goes back to the command hook alone.`;

export interface Plan {
  target: InstallTarget;
  file: string;
  before: string;
  after: string;
}

export function resolveTarget(command: string, agent: string | undefined): InstallTarget {
  return TARGETS[oneOf<AgentName>(command, 'agent', agent, AGENTS, 'claude')];
}

export function resolveScope(command: string, target: InstallTarget, scope: string | undefined): Scope {
  const chosen = oneOf<Scope>(command, 'scope', scope, ['project', 'user'], 'project');
  if (!target.scopes.includes(chosen)) throw new UsageError(`${command}: ${target.label} reads hooks only at --scope ${target.scopes.join(' or ')}`);
  return chosen;
}

export function show(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

export function apply(plans: Plan[], dryRun: boolean): number {
  let changed = 0;
  for (const p of plans) {
    if (p.before === p.after) continue;
    changed++;
    if (dryRun) {
      console.log(`--- ${show(p.file)}${p.before === '' && !existsSync(p.file) ? ' (new file)' : ''}`);
      console.log(lineDiff(p.before, p.after));
    } else if (p.after === '' && p.before !== '') unlinkSync(p.file);
    else writeTextAtomic(p.file, p.after);
  }
  return changed;
}

export function run(argv: string[]): number {
  const { values } = parse('install', argv, {
    agent: { type: 'string' },
    scope: { type: 'string' },
    rules: { type: 'boolean' },
    'config-toml': { type: 'boolean' },
    daemon: { type: 'boolean' },
    port: { type: 'string' },
    'dry-run': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const agentTarget = resolveTarget('install', values.agent);
  if (values['config-toml'] && agentTarget.agent !== 'codex') throw new UsageError(`install: --config-toml is for Codex only (${agentTarget.label} has no config.toml hooks)`);
  const target = values['config-toml'] ? codexTomlTarget : agentTarget;
  const scope = resolveScope('install', target, values.scope);
  const project = process.cwd();
  const file = target.settingsFile(scope, project, process.env);
  const rulesFile = values.rules ? target.rulesFile(scope, project, process.env) : undefined;
  if (values.rules && !rulesFile) throw new UsageError(`install: ${target.label} keeps no instruction file at --scope ${scope}; leave out --rules, or use --scope project`);
  const before = readText(file) ?? '';
  if (values.port !== undefined && !values.daemon) throw new UsageError('install: --port goes with --daemon');
  if (values.daemon && !target.daemon) throw new UsageError(`install: --daemon is for Claude Code only (${target.label} has no http hooks)`);
  if (values.daemon && process.platform === 'win32') throw new UsageError('install: --daemon needs a POSIX shell for its fallback command; use the command hook on Windows');
  const port = values.daemon ? (values.port === undefined ? defaultPort() : parsePort('install', values.port)) : undefined;
  const command = hookCommand(target.agent, undefined, undefined, { shell: target.shell, daemonPort: port });
  const url = port === undefined ? undefined : hookUrl(port, target.agent);
  const plans: Plan[] = [{ target, file, before, after: target.add(before, file, command, url) }];
  if (rulesFile) {
    const text = readText(rulesFile) ?? '';
    plans.push({ target, file: rulesFile, before: text, after: addRules(text, RULES_TEXT) });
  }
  const dryRun = values['dry-run'] === true;
  const changed = apply(plans, dryRun);
  if (dryRun) {
    if (changed === 0) console.log('stallguard install: nothing to change');
    return 0;
  }
  const mode = loadConfig({ cwd: project }).config.mode;
  console.log(`stallguard: ${changed === 0 ? 'already registered' : 'registered the hook'} for ${target.label} in ${show(file)} (${target.events.join(', ')}).`);
  if (url) console.log(`Daemon: the http hook goes to ${url}; \`stallguard serve\` starts on the first call that finds it down, and exits after 30 idle minutes.`);
  if (rulesFile) console.log(`stallguard: the rule is in ${show(rulesFile)}.`);
  console.log(
    mode === 'enforce'
      ? 'Mode: enforce. Stalls are nudged, then stopped.'
      : `Mode: ${mode}. Decisions are recorded in ${stallguardHome()} and nothing in the agent changes. To act on them, set "mode": "enforce" in .stallguard.json or STALLGUARD_MODE=enforce.`,
  );
  if (target.manualStep) console.log(target.manualStep);
  return 0;
}

export { removeRules };
