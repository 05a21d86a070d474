import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { userHome } from '../core/user-home.ts';
import { basename, dirname, join, resolve } from 'node:path';
import { codexHome, copilotHome, piAgentDir, qwenHome } from '../core/agent-homes.ts';

// Where agents keep their past sessions, and which files make up one session. Only names and sizes are
// read here; what a file holds is sniffed when it is scanned.

/** One session: its main transcript and the transcripts of the subagents it ran, when they are kept apart. */
export interface SessionFiles {
  main: string;
  subagents: string[];
}

/**
 * The agents' history folders that exist on this machine: Claude Code's projects (~/.claude/projects,
 * ~/.config/claude/projects, and each folder of CLAUDE_CONFIG_DIR, comma- or colon-separated), Codex's
 * sessions ($CODEX_HOME/sessions, default ~/.codex/sessions), Gemini CLI's chats (~/.gemini/tmp/<project>/chats),
 * Copilot CLI's session state ($COPILOT_HOME/session-state, default ~/.copilot), Qwen Code's projects
 * ($QWEN_HOME/projects, default ~/.qwen) and pi's sessions ($PI_CODING_AGENT_DIR/sessions, default
 * ~/.pi/agent/sessions).
 */
export function historyRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = userHome(env);
  const dirs = [join(home, '.claude', 'projects'), join(home, '.config', 'claude', 'projects')];
  for (const d of (env.CLAUDE_CONFIG_DIR ?? '').split(/[,:]/).filter(Boolean)) dirs.push(join(d, 'projects'));
  dirs.push(join(codexHome(env), 'sessions'));
  dirs.push(join(piAgentDir(env), 'sessions'));
  const geminiTmp = join(home, '.gemini', 'tmp');
  for (const project of entries(geminiTmp))
    if (project.isDirectory()) dirs.push(join(geminiTmp, project.name, 'chats'));
  dirs.push(join(copilotHome(env), 'session-state'));
  dirs.push(join(qwenHome(env), 'projects'));
  return [...new Set(dirs.map((d) => resolve(d)))].filter((d) => isDir(d));
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const TRANSCRIPT = /\.jsonl?$/;

function transcriptsIn(dir: string): string[] {
  return entries(dir)
    .filter((e) => e.isFile() && TRANSCRIPT.test(e.name))
    .map((e) => join(dir, e.name));
}

/** A Qwen Code session's subagents: ../subagents/<session id>/agent-*.jsonl beside chats/<session id>.jsonl. */
function qwenSubagents(chats: string, stem: string): string[] {
  return basename(chats) === 'chats'
    ? transcriptsIn(join(dirname(chats), 'subagents', stem)).filter((f) => f.endsWith('.jsonl'))
    : [];
}

/**
 * The sessions under a file or folder. A session's subagents are found beside it: Claude Code keeps them
 * in <session>/subagents/agent-*.jsonl, Gemini CLI in chats/<full session id>/ next to
 * chats/session-<time>-<first 8 characters of the id>.jsonl, Qwen Code in subagents/<session id>/ next to
 * chats/<session id>.jsonl. A Copilot CLI session is a folder holding events.jsonl (its subagents write
 * there too), beside snapshots of the files it touched, which are no transcripts.
 */
export function* sessionsUnder(path: string, depth = 0): Generator<SessionFiles> {
  const full = resolve(path);
  if (!isDir(full)) {
    if (existsSync(full)) yield { main: full, subagents: subagentsOf(full) };
    return;
  }
  if (depth > 8) return;
  const list = entries(full);
  if (list.some((e) => e.isFile() && e.name === 'events.jsonl')) {
    yield { main: join(full, 'events.jsonl'), subagents: [] };
    return;
  }
  const dirs = new Set(list.filter((e) => e.isDirectory()).map((e) => e.name));
  const taken = new Set<string>();
  if (dirs.has('chats')) taken.add('subagents');
  for (const e of list) {
    if (!e.isFile() || !TRANSCRIPT.test(e.name)) continue;
    const stem = e.name.replace(TRANSCRIPT, '');
    const subagents: string[] = [];
    if (dirs.has(stem)) {
      subagents.push(...transcriptsIn(join(full, stem, 'subagents')));
      taken.add(stem);
    }
    if (stem.startsWith('session-')) {
      const short = stem.slice(-8);
      for (const d of dirs)
        if (d.startsWith(short) && !taken.has(d)) {
          subagents.push(...transcriptsIn(join(full, d)));
          taken.add(d);
        }
    }
    subagents.push(...qwenSubagents(full, stem));
    yield { main: join(full, e.name), subagents };
  }
  for (const d of dirs) if (!taken.has(d)) yield* sessionsUnder(join(full, d), depth + 1);
}

function subagentsOf(file: string): string[] {
  const dir = file.replace(TRANSCRIPT, '');
  const name = basename(dir);
  const found = [...transcriptsIn(join(dir, 'subagents')), ...qwenSubagents(dirname(file), name)];
  if (name.startsWith('session-')) {
    const parent = resolve(dir, '..');
    for (const e of entries(parent))
      if (e.isDirectory() && e.name.startsWith(name.slice(-8))) found.push(...transcriptsIn(join(parent, e.name)));
  }
  return found;
}

export function sizeOf(files: SessionFiles): number {
  let bytes = 0;
  for (const f of [files.main, ...files.subagents])
    try {
      bytes += statSync(f).size;
    } catch {
      /* gone since it was listed: it is skipped when read */
    }
  return bytes;
}
