import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { EmbedGateSteps, ResolvedKey } from '@expedition/auth-publishable-key';
import type { RequestEntry } from '@expedition/http-kit';
import { createReadyPoll } from './ready-poll';
import { createReadyOptionsCache } from './ready-options-cache';

const QUOTE = '7d1f2c3a-1111-4222-8333-944455556666';
const BODY = Buffer.from('{"options":[]}');
/** Only what the ready poll reads of a key. */
const key = { keyId: 'k1', operatorId: 'op-1' } as ResolvedKey;

let server: Server;
let url: string;
let gate: jest.Mocked<EmbedGateSteps>;
let toExpress: jest.Mock;
let errors: Record<string, unknown>[];

beforeEach(async () => {
  const cache = createReadyOptionsCache();
  cache.set(QUOTE, { operatorId: 'op-1', body: BODY });
  gate = {
    admissible: jest.fn<ReturnType<EmbedGateSteps['admissible']>, Parameters<EmbedGateSteps['admissible']>>(
      async () => ({ key, origin: 'https://tours.example' }),
    ),
    admit: jest.fn<ReturnType<EmbedGateSteps['admit']>, Parameters<EmbedGateSteps['admit']>>(async () => true),
  };
  toExpress = jest.fn<void, Parameters<RequestEntry>>((_req, res) => {
    res.statusCode = 299;
    res.end('express');
  });
  errors = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => errors.push(JSON.parse(line)) });
  server = createServer(createReadyPoll({ gate, cache, logger, app: 'embed-api', express: toExpress }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => new Promise((resolve) => server.close(resolve)));

describe('createReadyPoll', () => {
  it('answers the own ready quote with its cached bytes after the gate admits it', async () => {
    const res = await fetch(`${url}/api/embed/options?quoteId=${QUOTE}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(BODY.toString());
    expect(toExpress).not.toHaveBeenCalled();
    expect(gate.admit).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['another path', `/api/embed/quote?quoteId=${QUOTE}`],
    ['the options path without a query', '/api/embed/options'],
    ['the options path in another case', `/api/embed/Options?quoteId=${QUOTE}`],
  ])('hands %s to Express without asking the gate', async (_name, target) => {
    const res = await fetch(`${url}${target}`);
    expect(await res.text()).toBe('express');
    expect(gate.admissible).not.toHaveBeenCalled();
  });

  it.each([
    ['a quote not cached', '00000000-0000-4000-8000-000000000000'],
    ['a malformed id', 'nope'],
    ['no id', ''],
  ])('checks key and Origin first, then hands %s to Express untouched', async (_name, id) => {
    const res = await fetch(`${url}/api/embed/options?quoteId=${id}`);
    expect(await res.text()).toBe('express');
    expect(res.headers.get('x-request-id')).toBeNull();
    expect(gate.admissible).toHaveBeenCalledTimes(1);
    expect(gate.admit).not.toHaveBeenCalled();
  });

  it('hands a request the gate would refuse, or a quote of another operator, to Express before touching it', async () => {
    gate.admissible.mockResolvedValueOnce(null);
    gate.admissible.mockResolvedValueOnce({ key: { ...key, operatorId: 'op-2' }, origin: 'https://tours.example' });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${url}/api/embed/options?quoteId=${QUOTE}`);
      expect(res.status).toBe(299);
      expect(res.headers.get('x-request-id')).toBeNull();
    }
    expect(gate.admit).not.toHaveBeenCalled();
  });

  it('cuts the connection, and logs, if answering throws after it took the request (never answers twice)', async () => {
    gate.admit.mockRejectedValueOnce(new Error('boom'));
    await expect(fetch(`${url}/api/embed/options?quoteId=${QUOTE}`)).rejects.toThrow();
    expect(toExpress).not.toHaveBeenCalled();
    expect(errors).toEqual([expect.objectContaining({ msg: 'ready poll failed' })]);
  });
});
