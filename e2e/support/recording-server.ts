import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// The HTTP half of every fake model server: listens on 127.0.0.1 on a free port, appends every request
// (method, path, parsed body) to a JSONL log before answering, and hands it to the API-specific handler.
// The log is what a test reads to know what reached the model.

export interface RecordedRequest {
  method: string;
  path: string;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  body?: unknown;
}

export type Handler = (request: RecordedRequest, res: ServerResponse) => void;

export interface RecordingServer {
  /** http://127.0.0.1:PORT */
  url: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startRecordingServer(log: string, handler: Handler): Promise<RecordingServer> {
  const server = createServer((req, res) => {
    readBody(req).then(
      (text) => {
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        const request: RecordedRequest = {
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          ...(body === undefined ? {} : { body }),
        };
        appendFileSync(log, JSON.stringify(request) + '\n');
        try {
          handler(request, res);
        } catch (error) {
          // a bug in a fake must show in the test, not hang the client
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ type: 'error', error: { type: 'fake_server_error', message: String(error) } }));
        }
      },
      () => res.destroy(),
    );
  });
  // keep-alive sockets would hold close() open after the client has gone
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
