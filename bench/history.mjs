// A generated Claude Code history for the scan and replay benchmarks: projects/<project>/<session>.jsonl
// transcripts, some with subagent transcripts beside them, shaped like Claude Code 2.x writes them (a
// response split over several assistant lines with its usage, tool results in the message and again,
// structured, in toolUseResult, Read results with line numbers, Edit results with the original file).
// The work is healthy most of the time, with loops now and then (the same failing test run again, a
// file re-read), so that the detector, the meter and the cost tables all have work to do.
//
// Deterministic (a seeded PRNG), written into a temp folder, never committed, and kept for the next run.

import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const VERSION = 5;
const PROJECTS = 8;

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'invoice total amount customer order line item price tax discount currency parse format render request response handler client server cache store queue retry timeout config value result error status user account session token record batch stream buffer index table column query filter sort page limit offset'.split(
    ' ',
  );
const EXT = ['ts', 'ts', 'ts', 'js', 'py', 'go', 'rs'];

class Gen {
  constructor(seed) {
    this.r = prng(seed);
  }
  int(lo, hi) {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick(list) {
    return list[Math.floor(this.r() * list.length)];
  }
  word() {
    return this.pick(WORDS);
  }
  ident() {
    return this.word() + this.word()[0].toUpperCase() + this.word().slice(1);
  }
  hex(n) {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)];
    return s;
  }
  b64(n) {
    let s = '';
    const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (let i = 0; i < n; i++) s += abc[this.int(0, 63)];
    return s;
  }
  uuid() {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-a${this.hex(3)}-${this.hex(12)}`;
  }
  sentence(n) {
    return Array.from({ length: n }, () => this.word()).join(' ');
  }
  codeLine() {
    switch (this.int(0, 5)) {
      case 0:
        return `  const ${this.ident()} = ${this.ident()}(${this.word()}, ${this.int(0, 500)});`;
      case 1:
        return `  if (${this.word()}.${this.word()} > ${this.int(1, 99)}) return ${this.ident()}(${this.word()});`;
      case 2:
        return `export function ${this.ident()}(${this.word()}: ${this.pick(['string', 'number', 'Invoice', 'Order[]'])}): ${this.pick(['void', 'number', 'Result'])} {`;
      case 3:
        return `  // ${this.sentence(this.int(4, 12))}`;
      case 4:
        return '}';
      default:
        return `  ${this.word()}.${this.ident()}({ ${this.word()}: ${this.int(0, 9999)}, ${this.word()}: '${this.word()}' });`;
    }
  }
  file(lines) {
    return Array.from({ length: lines }, () => this.codeLine()).join('\n') + '\n';
  }
}

/** One session's transcript lines, about `bytes` long. */
function session(g, id, cwd, bytes, agentId) {
  const lines = [];
  let size = 0;
  let step = 0;
  let parent = null;
  const files = Array.from({ length: 24 }, () => `src/${g.word()}/${g.ident()}.${g.pick(EXT)}`);
  const side = agentId ? { isSidechain: true, agentId } : { isSidechain: false };
  const t0 = Date.UTC(2026, 10, g.int(1, 28), g.int(0, 23), g.int(0, 59));
  const push = (o) => {
    const uuid = g.uuid();
    const text = JSON.stringify({
      parentUuid: parent,
      ...side,
      userType: 'external',
      cwd,
      sessionId: id,
      version: '2.1.197',
      gitBranch: 'main',
      ...o,
      uuid,
      timestamp: new Date(t0 + step * 7000 + lines.length * 10).toISOString(),
    });
    parent = uuid;
    lines.push(text);
    size += text.length + 1;
  };
  const prompt = () =>
    push({
      type: 'user',
      message: {
        role: 'user',
        content: `${g.sentence(g.int(8, 30))}. Fix the ${g.word()} ${g.word()} and make the tests pass.`,
      },
    });
  const call = (name, input, result, structured, isError) => {
    const id = `toolu_01${g.b64(22).replace(/[+/]/g, 'x')}`;
    const msg = `msg_01${g.b64(22).replace(/[+/]/g, 'x')}`;
    const req = `req_011C${g.b64(20).replace(/[+/]/g, 'x')}`;
    const usage = {
      input_tokens: g.int(1, 20),
      cache_creation_input_tokens: g.int(200, 6000),
      cache_read_input_tokens: g.int(20000, 90000),
      output_tokens: g.int(1, 20),
      service_tier: 'standard',
    };
    const message = (content, out) => ({
      id: msg,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-6',
      content,
      stop_reason: null,
      usage: { ...usage, output_tokens: out },
    });
    push({
      type: 'assistant',
      requestId: req,
      message: message(
        [{ type: 'thinking', thinking: g.sentence(g.int(20, 200)), signature: g.b64(g.int(200, 600)) }],
        2,
      ),
    });
    if (g.r() < 0.5)
      push({
        type: 'assistant',
        requestId: req,
        message: message([{ type: 'text', text: g.sentence(g.int(5, 40)) }], 20),
      });
    push({
      type: 'assistant',
      requestId: req,
      message: message([{ type: 'tool_use', id, name, input }], g.int(60, 400)),
    });
    push({
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }],
      },
      toolUseResult: isError ? `Error: ${result}` : structured,
    });
    step++;
  };
  const read = (path) => {
    const content = g.file(g.int(30, 300));
    const numbered = content
      .split('\n')
      .map((l, i) => `${String(i + 1).padStart(6)}→${l}`)
      .join('\n');
    call(
      'Read',
      { file_path: `${cwd}/${path}` },
      numbered,
      {
        type: 'text',
        file: {
          filePath: `${cwd}/${path}`,
          content,
          numLines: content.split('\n').length,
          startLine: 1,
          totalLines: content.split('\n').length,
        },
      },
      false,
    );
  };
  const testRun = (failing) => {
    const out = [`> proj@1.0.0 test`, `> vitest run`, '', ` RUN  v3.2.4 ${cwd}`, ''];
    for (let i = 0, n = g.int(10, 80); i < n; i++)
      out.push(` ✓ ${files[i % files.length]} > ${g.sentence(g.int(3, 7))} ${g.int(1, 40)}ms`);
    if (failing) {
      out.push(
        '',
        ` FAIL  ${failing.file} > ${failing.name}`,
        `AssertionError: expected ${failing.got} to be ${failing.want} // Object.is equality`,
        '',
      );
      for (let i = 0; i < 6; i++)
        out.push(`    at ${g.ident()} (${cwd}/${failing.file}:${10 + i * 7}:${g.int(3, 30)})`);
      out.push(
        '',
        ` Test Files  1 failed | ${g.int(5, 30)} passed`,
        `      Tests  1 failed | ${g.int(50, 300)} passed`,
        `   Duration  ${g.int(1, 9)}.${g.int(10, 99)}s`,
      );
      const text = out.join('\n');
      call('Bash', { command: 'npm test', description: 'Run the tests' }, `Exit code 1\n${text}`, undefined, true);
    } else {
      out.push(
        '',
        ` Test Files  ${g.int(5, 30)} passed`,
        `      Tests  ${g.int(50, 300)} passed`,
        `   Start at  ${g.int(10, 23)}:${g.int(10, 59)}:${g.int(10, 59)}`,
        `   Duration  ${g.int(1, 9)}.${g.int(10, 99)}s`,
      );
      const text = out.join('\n');
      call(
        'Bash',
        { command: 'npm test', description: 'Run the tests' },
        text,
        { stdout: text, stderr: '', interrupted: false, isImage: false },
        false,
      );
    }
  };
  prompt();
  while (size < bytes) {
    const roll = g.r();
    if (step > 0 && step % g.int(30, 60) === 0) prompt();
    if (roll < 0.3) read(g.pick(files));
    else if (roll < 0.45) {
      const pattern = g.ident();
      const hits = Array.from({ length: g.int(0, 12) }, () => g.pick(files));
      call(
        'Grep',
        { pattern, path: 'src', output_mode: 'files_with_matches' },
        hits.length ? `Found ${hits.length} files\n${hits.join('\n')}` : 'No files found',
        { mode: 'files_with_matches', filenames: hits, numFiles: hits.length },
        false,
      );
    } else if (roll < 0.65) {
      const path = g.pick(files);
      const original = g.file(g.int(30, 200));
      const old = g.codeLine();
      const next = g.codeLine();
      call(
        'Edit',
        { file_path: `${cwd}/${path}`, old_string: old, new_string: next },
        `The file ${cwd}/${path} has been updated.`,
        {
          filePath: `${cwd}/${path}`,
          oldString: old,
          newString: next,
          originalFile: original,
          structuredPatch: [{ oldStart: 5, oldLines: 1, newStart: 5, newLines: 1, lines: [`-${old}`, `+${next}`] }],
          userModified: false,
          replaceAll: false,
        },
        false,
      );
    } else if (roll < 0.994)
      testRun(
        g.r() < 0.4
          ? { file: g.pick(files), name: g.sentence(4), got: g.int(0, 99), want: g.int(100, 199) }
          : undefined,
      );
    else if (roll < 0.997) {
      // a loop: the same failing run again and again, nothing changed in between
      const failing = { file: g.pick(files), name: g.sentence(4), got: g.int(0, 99), want: g.int(100, 199) };
      const seed = g.int(0, 1e9);
      for (let i = 0, n = g.int(3, 8); i < n; i++) {
        const again = new Gen(seed);
        again.r = prng(seed);
        const keep = g.r;
        g.r = again.r;
        testRun(failing);
        g.r = keep;
      }
    } else {
      const path = g.pick(files);
      for (let i = 0, n = g.int(2, 6); i < n; i++) {
        const keep = g.r;
        g.r = prng(path.length * 7919 + step - i);
        read(path);
        g.r = keep;
      }
    }
  }
  return lines;
}

/**
 * The history folder for `totalBytes`, generated unless a complete one is there already. Returns its path
 * and the size of one project folder's share (an eighth), for the memory-flatness row.
 */
export function ensureHistory(root, totalBytes, log = () => undefined) {
  const dir = join(root, `claude-history-v${VERSION}-${Math.round(totalBytes / (1 << 20))}m`);
  const done = `${dir}.json`; // beside the folder, not in what is scanned
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  const g = new Gen(20261129);
  let written = 0;
  let sessions = 0;
  const perProject = totalBytes / PROJECTS;
  const projects = [];
  for (let p = 0; p < PROJECTS; p++) {
    const cwd = `/home/dev/work/${g.word()}-${g.word()}-${p}`;
    const folder = join(dir, 'projects', cwd.replace(/\//g, '-'));
    mkdirSync(folder, { recursive: true });
    let bytes = 0;
    while (bytes < perProject) {
      const id = g.uuid();
      const target = Math.min(perProject - bytes, g.int(1, 5) * (1 << 20));
      const files = [[join(folder, `${id}.jsonl`), undefined]];
      if (g.r() < 0.2)
        for (let s = 0, n = g.int(1, 3); s < n; s++)
          files.push([join(folder, id, 'subagents', `agent-${g.hex(8)}.jsonl`), g.hex(8)]);
      for (const [file, agentId] of files) {
        const lines = session(g, id, cwd, agentId ? target / 4 : target, agentId);
        mkdirSync(join(file, '..'), { recursive: true });
        const fd = openSync(file, 'w');
        for (let i = 0; i < lines.length; i += 500) writeSync(fd, lines.slice(i, i + 500).join('\n') + '\n');
        closeSync(fd);
        const size = lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
        bytes += size;
        written += size;
      }
      sessions++;
      if (sessions % 25 === 0) log(`generated ${Math.round(written / (1 << 20))} MB`);
    }
    projects.push({ folder, bytes });
  }
  const info = { dir, bytes: written, sessions, projects };
  writeFileSync(done, JSON.stringify(info));
  return info;
}
