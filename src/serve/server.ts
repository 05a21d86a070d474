import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { stallguardHome } from '../config/load.ts';
import { consultJudge, logError, runHook } from '../hook/run-hook.ts';
import { HOOK_PATH } from './address.ts';
import { requestEnv } from '../core/hook-env.ts';
import type { OpenTurns } from './open-turns.ts';

// `stallguard serve`: the hook as a local HTTP server, for Claude Code's `http` hook type. The payload is
// POSTed, the response body is the hook's output, and each request goes through the very runHook the
// command hook runs, on the same session log, so the two can take turns within one session. A warm
// process pays no node start-up, which is the whole cost of a command hook.
//
// Only this user's agent should reach it: it listens on 127.0.0.1, refuses requests a browser would send
// (any Origin header) and Host names other than the loopback one (DNS rebinding). It fails open like the
// hook: whatever goes wrong, the answer is an empty 200 and a line in errors.log. Each request runs in the
// environment of the hook that sent it (hook-env.ts), and with the optional LLM judge as the hook does; a
// hook whose STALLGUARD_HOME is another than the daemon's is refused (421), so that a port shared by two
// homes never mixes their sessions: the command that stands in for the daemon then runs the hook itself.

const MAX_BODY = 64 << 20;

export interface ServeOptions {
  port: number;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Folder of the running bundle, protected from edits like the hook's own. */
  selfDir?: string;
  /** Called on every request, for the idle timer. */
  onRequest?: () => void;
  /** Claude Code's turns in progress, for the idle timer: noted from every payload its http hooks send. */
  turns?: OpenTurns;
  /** Called when a request finds STALLGUARD_HOME gone: it is answered 503, and the daemon should go too. */
  onHomeGone?: () => void;
}

export interface Answer {
  status: number;
  body: string;
  /** STALLGUARD_HOME is gone: the daemon goes once this answer is sent. */
  homeGone?: boolean;
}

/**
 * The answer to one request, from its method, path, headers and body. `silent` is called, when the answer
 * is known to be nothing before the event is recorded (shadow mode), to send it then.
 */
export async function answer(
  method: string | undefined,
  url: string | undefined,
  headers: IncomingMessage['headers'],
  body: string,
  opts: ServeOptions,
  silent?: () => void,
): Promise<Answer> {
  if (headers.origin !== undefined) return { status: 403, body: '' };
  const host = headers.host ?? '';
  if (host !== `127.0.0.1:${opts.port}` && host !== `localhost:${opts.port}`) return { status: 403, body: '' };
  if (method !== 'POST' || !url?.startsWith(HOOK_PATH)) return { status: 404, body: '' };
  const agent = url.slice(HOOK_PATH.length).split(/[?#]/)[0]!;
  if (!existsSync(opts.home)) return { status: 503, body: '', homeGone: true };
  if (agent === 'claude') opts.turns?.note(body, Date.now());
  const { env, sent } = requestEnv(opts.env, headers);
  if (sent && stallguardHome(env) !== opts.home) return { status: 421, body: '' };
  const out = runHook({ stdin: body, argv: ['--agent', agent], env, selfDir: opts.selfDir, silent });
  return { status: 200, body: (await consultJudge(out, env)).stdout };
}

function reply(res: ServerResponse, a: Answer): void {
  res.writeHead(a.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(a.body) });
  res.end(a.body);
}

/** How long a connection is kept for the next request: Claude Code reuses its connection between tool calls. */
const KEEP_ALIVE_MS = 30 * 60_000;

export function createHookServer(opts: ServeOptions): Server {
  const server = createServer((req, res) => {
    opts.onRequest?.();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size <= MAX_BODY) chunks.push(b);
    });
    req.on('end', () => {
      // in shadow mode the answer is nothing: it goes out before the event is recorded, so the agent waits
      // for the round trip alone (a request's recording still ends before the next one's begins)
      let sent = false;
      const silent = () => {
        sent = true;
        reply(res, { status: 200, body: '' });
      };
      const asked: Promise<Answer> =
        size > MAX_BODY
          ? Promise.resolve({ status: 413, body: '' })
          : answer(req.method, req.url, req.headers, Buffer.concat(chunks).toString('utf8'), opts, silent);
      asked.then(
        (a) => {
          if (a.homeGone) res.once('finish', () => opts.onHomeGone?.());
          if (!sent) reply(res, a);
        },
        (error: unknown) => {
          logError(opts.home, 'serve', error);
          if (!sent) reply(res, { status: 200, body: '' });
        },
      );
    });
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return server;
}
