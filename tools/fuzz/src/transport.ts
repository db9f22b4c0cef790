import http from 'node:http';
import type { RequestInput } from './route-spec';

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request over a real socket; never throws for an HTTP answer (a reset socket is reported as status 0). */
export function send(baseUrl: string, input: RequestInput): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...input.headers };
  const payload = input.body?.text !== undefined ? Buffer.from(input.body.text, 'utf8') : undefined;
  if (input.body?.contentType) headers['content-type'] = input.body.contentType;
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve) => {
    let req: http.ClientRequest;
    try {
      req = http.request({
        host: url.hostname,
        port: url.port,
        method: input.method,
        path: input.path,
        headers,
        agent,
      });
    } catch (error) {
      // The client itself refused to send it (an invalid header or path): not the server's fault.
      resolve({ status: -1, headers: {}, text: String((error as Error).message) });
      return;
    }
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', () => resolve({ status: 0, headers: res.headers, text: '' }));
    });
    req.on('error', (error) => resolve({ status: 0, headers: {}, text: `socket error: ${(error as Error).message}` }));
    req.end(payload);
  });
}

/** Percent-encodes any string, lone surrogates included (sent as the bytes a sloppy client would send). */
export function encodeParam(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
}
