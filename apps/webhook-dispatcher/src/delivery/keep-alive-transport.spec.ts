import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKeepAliveTransport, type KeepAliveTransport } from './keep-alive-transport';

let server: Server;
let url: string;
let connections = 0;
let handle: (req: IncomingMessage, res: ServerResponse, body: string) => void;
let transport: KeepAliveTransport;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  connections = 0;
  transport = createKeepAliveTransport({ allowPrivateNetworks: true }); // development: the receiver is on loopback
});
afterEach(() => transport.close());

const post = (body = '{"eventId":"evt_1"}', timeoutMs = 2_000) =>
  transport.send(url, { headers: { 'Content-Type': 'application/json', 'X-SVC-Event-Id': 'evt_1' }, body, timeoutMs });

describe('keep-alive webhook transport', () => {
  it('POSTs the exact body with its headers and a Content-Length, and answers the status', async () => {
    let seen: { method?: string; headers: IncomingMessage['headers']; body: string } | undefined;
    handle = (req, res, body) => {
      seen = { method: req.method, headers: req.headers, body };
      res.statusCode = 202;
      res.end('accepted');
    };

    expect(await post('{"eventId":"evt_é"}')).toBe(202);

    expect(seen).toMatchObject({ method: 'POST', body: '{"eventId":"evt_é"}' });
    expect(seen?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-svc-event-id': 'evt_1',
      'content-length': '20',
    });
  });

  it('reuses one connection for POSTs one after another', async () => {
    handle = (_req, res) => res.end('ok');

    for (let i = 0; i < 5; i++) expect(await post()).toBe(200);

    expect(connections).toBe(1);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    let requests = 0;
    handle = (_req, res) => {
      requests++;
      res.writeHead(307, { Location: '/elsewhere' }).end();
    };

    expect(await post()).toBe(307);
    expect(requests).toBe(1);
  });

  it('fails with a TimeoutError when the receiver does not answer in time', async () => {
    handle = () => undefined; // never answers

    await expect(post('{}', 100)).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('fails with the socket error code when nobody listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hooks`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    await expect(transport.send(deadUrl, { headers: {}, body: '{}', timeoutMs: 2_000 })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  describe('under production rules (no private networks)', () => {
    let production: KeepAliveTransport;
    beforeEach(() => {
      production = createKeepAliveTransport({ allowPrivateNetworks: false });
      handle = (_req, res) => res.end('ok');
    });
    afterEach(() => production.close());

    const port = () => (server.address() as AddressInfo).port;
    const send = (target: string) => production.send(target, { headers: {}, body: '{}', timeoutMs: 2_000 });

    it('refuses a host name that resolves to 127.0.0.1 at connect time: the listening receiver never sees a connection', async () => {
      await expect(send(`http://localhost:${port()}/hooks`)).rejects.toMatchObject({
        name: 'BlockedAddressError',
        message: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1): loopback address refused$/),
      });
      expect(connections).toBe(0);
    });

    it.each([
      'http://127.0.0.1:PORT/',
      'http://2130706433:PORT/',
      'http://0x7f000001:PORT/',
      'http://127.1:PORT/',
      'http://[::ffff:127.0.0.1]:PORT/',
      // IPv6 forms carrying 127.0.0.1 (libs/platform outbound-address.ts, classifyAddress)
      'http://[::127.0.0.1]:PORT/',
      'http://[::7f00:1]:PORT/',
      'http://[::ffff:0:7f00:1]:PORT/',
      'http://[64:ff9b::7f00:1]:PORT/',
      'http://[64:ff9b:1::7f00:1]:PORT/',
      'http://[2002:7f00:1::]:PORT/',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:PORT/',
    ])('refuses the IP literal %s before connecting', async (template) => {
      await expect(send(template.replace('PORT', String(port())))).rejects.toMatchObject({
        name: 'BlockedAddressError',
        code: 'ERR_BLOCKED_ADDRESS',
      });
      expect(connections).toBe(0);
    });
  });
});
