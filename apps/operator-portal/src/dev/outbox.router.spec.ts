import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import type { Request, Response } from 'express';
import { createTestClock } from '@expedition/platform/testing';
import { createOutboxMailer } from '../mail/mailer';
import { isLoopbackPeer, loopbackOnly, outboxRouter, withLinksInNewTabs } from './outbox.router';

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

describe('a mail with an HTML part and attachments', () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'outbox-router-')), 'outbox');
  const outbox = createOutboxMailer({ dir, from: 'p@example.com', clock: createTestClock() });
  const app = express().use(
    outboxRouter({
      list: () => outbox.list(),
      html: (id) => outbox.html(id),
      attachment: (id, n) => outbox.attachment(id, n),
      dir,
    }),
  );
  let id = '';

  beforeAll(async () => {
    await outbox.send({
      to: 'ana@example.com',
      subject: 'Your policy POL-1',
      text: 'Your policy is attached.',
      html: '<!doctype html><html><head><title>Policy</title></head><body><p style="color:#0a0">Covered</p><a href="https://example.com/p">Policy page</a><script>alert(1)</script></body></html>',
      attachments: [
        { filename: 'certificate.pdf', content: Buffer.from('%PDF-1.7 test'), contentType: 'application/pdf' },
      ],
    });
    id = outbox.list()[0]!.id;
  });

  it('frames the HTML part on the page, keeps the text part, and lists each attachment as a download', async () => {
    const res = await request(app).get('/dev/outbox');
    expect(res.headers['content-security-policy']).toContain("frame-src 'self'");
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain(
      `<iframe src="/dev/outbox/${id}/html" sandbox="allow-popups allow-popups-to-escape-sandbox"`,
    );
    expect(res.text).toContain('<summary>Plain-text part</summary><pre>Your policy is attached.</pre>');
    expect(res.text).toContain(
      `<a href="/dev/outbox/${id}/attachments/0" download="certificate.pdf">certificate.pdf</a>`,
    );
  });

  it('serves the HTML as sent, sandboxed by its own CSP (no script, no form, a unique origin), links in new tabs', async () => {
    const res = await request(app).get(`/dev/outbox/${id}/html`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('sandbox allow-popups allow-popups-to-escape-sandbox');
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('script-src');
    expect(res.text).toBe(
      '<!doctype html><html><head><base target="_blank"><title>Policy</title></head><body><p style="color:#0a0">Covered</p><a href="https://example.com/p">Policy page</a><script>alert(1)</script></body></html>',
    );
  });

  it('serves an attachment as a download with its name, and 404 for anything else', async () => {
    const res = await request(app).get(`/dev/outbox/${id}/attachments/0`).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename=certificate.pdf');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(Buffer.from(res.body as Buffer).toString()).toBe('%PDF-1.7 test');
    for (const url of [
      `/dev/outbox/${id}/attachments/1`,
      `/dev/outbox/${id}/attachments/-1`,
      `/dev/outbox/..%2F..%2Fetc%2Fpasswd/html`,
      `/dev/outbox/${id.replace(/.$/, 'x')}/html`,
    ])
      expect((await request(app).get(url)).status).toBe(404);
  });

  it('puts the base target after <head>, or first in a fragment', () => {
    expect(withLinksInNewTabs('<HEAD lang="en"><title>t</title>')).toBe(
      '<HEAD lang="en"><base target="_blank"><title>t</title>',
    );
    expect(withLinksInNewTabs('<p>hi</p>')).toBe('<base target="_blank"><p>hi</p>');
  });
});
