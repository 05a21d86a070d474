import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { logError, runHook } from '../hook/run-hook.ts';
import { HOOK_PATH } from './address.ts';

// `stallguard serve`: the hook as a local HTTP server, for Claude Code's `http` hook type. The payload is
// POSTed, the response body is the hook's output, and each request goes through the very runHook the
// command hook runs, on the same session log, so the two can take turns within one session. A warm
// process pays no node start-up, which is the whole cost of a command hook.
//
// Only this user's agent should reach it: it listens on 127.0.0.1, refuses requests a browser would send
// (any Origin header) and Host names other than the loopback one (DNS rebinding). It fails open like the
// hook: whatever goes wrong, the answer is an empty 200 and a line in errors.log.

const MAX_BODY = 64 << 20;

export interface ServeOptions {
  port: number;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Folder of the running bundle, protected from edits like the hook's own. */
  selfDir?: string;
  /** Called on every request, for the idle timer. */
  onRequest?: () => void;
}

export interface Answer {
  status: number;
  body: string;
}

/** The answer to one request, from its method, path, headers and body. */
export function answer(
  method: string | undefined,
  url: string | undefined,
  headers: IncomingMessage['headers'],
  body: string,
  opts: ServeOptions,
): Answer {
  if (headers.origin !== undefined) return { status: 403, body: '' };
  const host = headers.host ?? '';
  if (host !== `127.0.0.1:${opts.port}` && host !== `localhost:${opts.port}`) return { status: 403, body: '' };
  if (method !== 'POST' || !url?.startsWith(HOOK_PATH)) return { status: 404, body: '' };
  const agent = url.slice(HOOK_PATH.length).split(/[?#]/)[0]!;
  return {
    status: 200,
    body: runHook({ stdin: body, argv: ['--agent', agent], env: opts.env, selfDir: opts.selfDir }).stdout,
  };
}

function reply(res: ServerResponse, a: Answer): void {
  res.writeHead(a.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(a.body) });
  res.end(a.body);
}

export function createHookServer(opts: ServeOptions): Server {
  return createServer((req, res) => {
    opts.onRequest?.();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size <= MAX_BODY) chunks.push(b);
    });
    req.on('end', () => {
      let a: Answer;
      try {
        a =
          size > MAX_BODY
            ? { status: 413, body: '' }
            : answer(req.method, req.url, req.headers, Buffer.concat(chunks).toString('utf8'), opts);
      } catch (error) {
        logError(opts.home, 'serve', error);
        a = { status: 200, body: '' };
      }
      reply(res, a);
    });
    req.on('error', () => res.destroy());
  });
}
