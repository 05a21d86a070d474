import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StallguardPlugin } from './opencode.ts';
import stallguardPi from './pi.ts';

// The plugins as opencode and pi run them: their hooks called the way the agents call them (shapes from
// the captured payloads in src/adapters/*/…test.ts), with the engine in-process and the ledger where the
// hook keeps it. Each test gets a project of its own; STALLGUARD_HOME is per test file (this process).

const HOME = mkdtempSync(join(tmpdir(), 'sg-plugin-'));
process.env.STALLGUARD_HOME = HOME;
const FAILED = 'running tests\nFAIL add(2, 3): expected 5, got -1\n0 passed, 2 failed\n';

function project(mode: 'enforce' | 'shadow', config: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-plugin-proj-'));
  writeFileSync(join(dir, '.stallguard.json'), JSON.stringify({ mode, ...config }));
  return dir;
}

function ledger(session: string): Record<string, any>[] {
  const file = readdirSync(join(HOME, 'sessions')).find((f) => f.startsWith(session));
  return file
    ? readFileSync(join(HOME, 'sessions', file), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
}

async function opencode(mode: 'enforce' | 'shadow') {
  const aborted: string[] = [];
  const hooks = await StallguardPlugin({
    directory: project(mode),
    client: { session: { abort: async ({ path }) => void aborted.push(path.id) } },
  });
  return { hooks, aborted };
}

type Hooks = Awaited<ReturnType<typeof StallguardPlugin>>;

/** One call as opencode makes it: before (which may throw a refusal), then, if it ran, after. */
async function bashCall(hooks: Hooks, sessionID: string, n: number): Promise<{ refused?: string; output?: string }> {
  const input = { tool: 'bash', sessionID, callID: `call_${sessionID}_${n}` };
  const args = { command: 'npm test', description: 'run tests' };
  try {
    await hooks['tool.execute.before'](input, { args });
  } catch (e) {
    return { refused: (e as Error).message };
  }
  const output = { title: 'npm test', output: FAILED, metadata: { exit: 1 } };
  await hooks['tool.execute.after']({ ...input, args }, output);
  return { output: output.output };
}

describe('the opencode plugin', () => {
  it(
    'nudges a looping npm test in the output the model ' + 'reads, refuses its repeat, then aborts the session',
    async () => {
      const { hooks, aborted } = await opencode('enforce');
      await hooks['chat.message']({ sessionID: 'ses_loop' }, { parts: [{ type: 'text', text: 'fix the tests' }] });
      const turns = [];
      for (let i = 0; i < 15 && aborted.length === 0; i++) turns.push(await bashCall(hooks, 'ses_loop', i));
      const nudge = turns.findIndex((t) => t.output?.includes('\n\nstallguard: '));
      assert.ok(nudge >= 0 && nudge <= 4, `nudged at call ${nudge + 1}`);
      assert.match(turns[nudge + 1]!.refused!, /^stallguard: this call repeats the loop flagged just before/);
      assert.deepEqual(aborted, ['ses_loop']);
      assert.ok(turns.length < 15);
      const lines = ledger('ses_loop');
      assert.equal(lines[0]!.agent, 'opencode');
      assert.deepEqual(
        lines.filter((l) => l.t === 'd').map((l) => `${l.d.code} ${l.mode}`),
        ['STALL enforce', 'REPEAT_DENIED enforce', 'STALL_AGAIN enforce'],
      );
    },
  );

  it("files a subagent's calls under the main session, as an agent of the type the task asked for", async () => {
    const { hooks } = await opencode('enforce');
    await hooks['tool.execute.before'](
      { tool: 'task', sessionID: 'ses_root', callID: 'c_task' },
      { args: { prompt: 'p', description: 'd', subagent_type: 'explore' } },
    );
    await hooks.event({
      event: { type: 'session.created', properties: { info: { id: 'ses_kid', parentID: 'ses_root' } } },
    });
    await bashCall(hooks, 'ses_kid', 0);
    assert.equal(
      existsSync(join(HOME, 'sessions')) && readdirSync(join(HOME, 'sessions')).some((f) => f.startsWith('ses_kid')),
      false,
    );
    const agents = ledger('ses_root')
      .filter((l) => l.t === 'o')
      .map((l) => [l.o.step.k, l.o.agent]);
    assert.deepEqual(agents, [
      ['spawn', { id: 'main' }],
      ['pre', { id: 'ses_kid', type: 'explore' }],
      ['call', { id: 'ses_kid', type: 'explore' }],
    ]);
  });

  it('sees a call that threw through its error part, and adds the nudge to the error the model is sent', async () => {
    const { hooks } = await opencode('enforce');
    const edit = (n: number) => ({
      type: 'tool',
      tool: 'edit',
      callID: `e${n}`,
      sessionID: 'ses_edit',
      state: {
        status: 'error',
        input: { filePath: 'src/a.js', oldString: 'x', newString: 'y' },
        error: 'Could not find oldString in the file.',
      },
    });
    for (let n = 0; n < 4; n++) {
      await hooks['tool.execute.before'](
        { tool: 'edit', sessionID: 'ses_edit', callID: `e${n}` },
        { args: edit(n).state.input },
      ).catch(() => undefined);
      await hooks.event({ event: { type: 'message.part.updated', properties: { part: edit(n) } } });
    }
    const messages = [{ parts: [0, 1, 2, 3].map(edit) }];
    await hooks['experimental.chat.messages.transform']({}, { messages });
    const noted = messages[0]!.parts.filter((p) => p.state.error.includes('\n\nstallguard: '));
    assert.equal(noted.length, 1, JSON.stringify(messages));
    // the same error part reported again is not a second failure
    const calls = ledger('ses_edit').filter((l) => l.t === 'o' && l.o.step.k === 'call').length;
    await hooks.event({ event: { type: 'message.part.updated', properties: { part: edit(0) } } });
    assert.equal(ledger('ses_edit').filter((l) => l.t === 'o' && l.o.step.k === 'call').length, calls);
  });

  it('changes nothing in shadow mode, and records what it would have done', async () => {
    const { hooks, aborted } = await opencode('shadow');
    const turns = [];
    for (let i = 0; i < 12; i++) turns.push(await bashCall(hooks, 'ses_shadow', i));
    assert.ok(turns.every((t) => t.output === FAILED && !t.refused));
    assert.deepEqual(aborted, []);
    assert.ok(ledger('ses_shadow').some((l) => l.t === 'd' && l.mode === 'shadow'));
  });

  it('fails open: whatever its hooks are handed, none of them throws', async () => {
    const { hooks } = await opencode('enforce');
    const junk: unknown[] = [undefined, null, 7, 'x', {}, { sessionID: 5, tool: {}, callID: [] }];
    for (const a of junk)
      for (const b of junk) {
        await hooks['chat.message'](a as never, b);
        await hooks['tool.execute.before'](a as never, b as never);
        await hooks['tool.execute.after'](a as never, b as never);
        await hooks.event(a as never);
        await hooks['experimental.chat.messages.transform'](a, b as never);
      }
  });
});

describe('the pi extension', () => {
  type Handler = (event: Record<string, unknown>, ctx: Record<string, unknown>) => Promise<any>;
  function load(mode: 'enforce' | 'shadow', config: Record<string, unknown> = {}) {
    const handlers = new Map<string, Handler>();
    const followUps: string[] = [];
    stallguardPi({
      on: (name, h) => void handlers.set(name, h as Handler),
      sendUserMessage: (text) => void followUps.push(text),
    });
    let aborts = 0;
    const session = `pi-session-${Math.random().toString(36).slice(2)}`;
    const ctx = {
      cwd: project(mode, config),
      sessionManager: { getSessionId: () => session },
      abort: () => void aborts++,
    };
    return {
      on: (name: string, event: Record<string, unknown>, c: Record<string, unknown> = ctx) =>
        handlers.get(name)!(event, c),
      aborts: () => aborts,
      followUps,
      session,
    };
  }

  it('nudges a looping npm test in the content the model reads, blocks its repeat, then aborts the run', async () => {
    const pi = load('enforce');
    await pi.on('before_agent_start', { prompt: 'fix the tests' });
    const turns: { blocked?: string; content?: { text: string }[] }[] = [];
    for (let i = 0; i < 15 && pi.aborts() === 0; i++) {
      const call = { toolName: 'bash', toolCallId: `t${i}`, input: { command: 'npm test' } };
      const before = await pi.on('tool_call', call);
      if (before?.block) {
        turns.push({ blocked: before.reason });
        continue;
      }
      const after = await pi.on('tool_result', { ...call, content: [{ type: 'text', text: FAILED }], isError: true });
      turns.push({ content: after?.content });
    }
    const nudge = turns.findIndex((t) => t.content?.at(-1)?.text.startsWith('stallguard: '));
    assert.ok(nudge >= 0 && nudge <= 4, `nudged at call ${nudge + 1}`);
    assert.equal(turns[nudge]!.content![0]!.text, FAILED);
    assert.match(turns[nudge + 1]!.blocked!, /^stallguard: this call repeats the loop/);
    assert.equal(pi.aborts(), 1);
    assert.deepEqual(
      ledger(pi.session)
        .filter((l) => l.t === 'd')
        .map((l) => l.d.code),
      ['STALL', 'REPEAT_DENIED', 'STALL_AGAIN'],
    );
  });

  it(
    'sends the agent back with a follow-up message when ' + 'its run ends with an unverified edit (verifyBeforeStop)',
    async () => {
      const pi = load('enforce', { verifyBeforeStop: true });
      await pi.on('before_agent_start', { prompt: 'fix add' });
      const edit = {
        toolName: 'edit',
        toolCallId: 'e1',
        input: { path: 'src/math.js', edits: [{ oldText: 'a - b', newText: 'a + b' }] },
      };
      await pi.on('tool_call', edit);
      await pi.on('tool_result', {
        ...edit,
        content: [{ type: 'text', text: 'Successfully replaced 1 block.' }],
        isError: false,
      });
      await pi.on('agent_end', { messages: [{ role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] }] });
      assert.equal(pi.followUps.length, 1);
      assert.match(pi.followUps[0]!, /^stallguard: 1 edit to code since the last test/);
    },
  );

  it('fails open: a context that throws, or events of any shape, change nothing', async () => {
    const pi = load('enforce');
    const broken = {
      get sessionManager(): never {
        throw new Error('stale extension context');
      },
      abort: () => {
        throw new Error('no');
      },
    };
    for (const name of ['before_agent_start', 'tool_call', 'tool_result', 'agent_end'])
      for (const event of [{}, { toolName: 7, input: null, content: 'x' }] as Record<string, unknown>[]) {
        assert.equal(await pi.on(name, event, broken), undefined);
        assert.equal(await pi.on(name, event), undefined);
      }
  });
});
