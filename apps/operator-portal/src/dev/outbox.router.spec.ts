import express from 'express';
import request from 'supertest';
import type { Request, Response } from 'express';
import { isLoopbackPeer, loopbackOnly, outboxRouter } from './outbox.router';

describe('the dev outbox is for this machine only', () => {
  it('recognises loopback peers (IPv4, IPv6, IPv4-mapped) and nothing else', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopbackPeer(ip)).toBe(true);
    for (const ip of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1', '', undefined])
      expect(isLoopbackPeer(ip)).toBe(false);
  });

  it('serves a loopback caller (supertest connects over loopback)', async () => {
    const app = express().use(outboxRouter({ list: () => [], dir: '/tmp/outbox' }));
    expect((await request(app).get('/api/portal/v1/dev/outbox')).body).toEqual({ mails: [] });
    expect((await request(app).get('/dev/outbox')).status).toBe(200);
  });

  it('answers 404 to a caller on another machine (X-Forwarded-For is never looked at)', () => {
    const next = jest.fn();
    const status = jest.fn().mockReturnValue({ end: jest.fn() });
    const req = {
      socket: { remoteAddress: '192.168.1.20' },
      headers: { 'x-forwarded-for': '127.0.0.1' },
    } as unknown as Request;
    loopbackOnly(req, { status } as unknown as Response, next);
    expect(next).not.toHaveBeenCalled();
    expect(status).toHaveBeenCalledWith(404);
    loopbackOnly({ socket: { remoteAddress: '::1' } } as unknown as Request, { status } as unknown as Response, next);
    expect(next).toHaveBeenCalledTimes(1);
  });
});
