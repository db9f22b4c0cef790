import { createServer, type Server } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { composePortal } from '../src/compose';
import { loadConfig } from '../src/config';
import { createSmtpMailer } from '../src/mail/mailer';
import { API } from './harness';

const SMTP_PORT = 14071;

/** Just enough SMTP to receive one message (EHLO, MAIL, RCPT, DATA, QUIT): real delivery through nodemailer. */
function fakeSmtpServer(received: string[]): Server {
  return createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let at: number;
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (data) {
          if (line === '.') {
            data = false;
            socket.write('250 queued\r\n');
          } else received.push(line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake\r\n');
        else if (verb === 'DATA') {
          data = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
}

describe('composePortal', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());

  it('embedded: mails go to DATA_DIR/outbox and /dev/outbox lists them', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-compose-'));
    const config = loadConfig({ DATA_DIR: dataDir, PORTAL_URL: 'http://portal.test:3004' });
    const portal = composePortal({ config, db, logger: pino({ level: 'silent' }) });
    expect(portal.mailer.kind).toBe('outbox');
    expect(portal.outboxDir).toBe(path.join(dataDir, 'outbox'));
    const res = await request(portal.app)
      .post(`${API}/auth/signup`)
      .set('Origin', 'http://portal.test:3004')
      .send({
        email: `compose-${process.pid}@example.com`,
        password: 'compose-password-1',
        operatorName: 'Compose Co',
      });
    expect(res.status).toBe(201);
    const outbox = await request(portal.app).get(`${API}/dev/outbox`);
    expect(outbox.body.mails).toHaveLength(1);
    expect((await request(portal.app).get(`${API}/openapi.json`)).body.openapi).toBe('3.1.0');
  });

  it('production: no outbox routes, mail through SMTP_URL (delivered to an SMTP server)', async () => {
    const received: string[] = [];
    const server = fakeSmtpServer(received);
    await new Promise<void>((resolve) => server.listen(SMTP_PORT, '127.0.0.1', resolve));
    try {
      const config = loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgresql://unused/x',
        WEBHOOK_SECRET_KEYS: `k1:${Buffer.alloc(32, 9).toString('base64')}`,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        MAIL_FROM: 'Portal <portal@example.com>',
        PORTAL_URL: 'https://portal.example.com',
      });
      const portal = composePortal({ config, db, logger: pino({ level: 'silent' }) });
      expect(portal.mailer.kind).toBe('smtp');
      expect(portal.outboxDir).toBeUndefined();
      expect((await request(portal.app).get(`${API}/dev/outbox`)).status).toBe(404);
      expect((await request(portal.app).get('/dev/outbox').set('Accept', 'text/html')).status).toBe(404);

      await createSmtpMailer({ smtpUrl: config.smtpUrl!, from: config.mailFrom }).send({
        to: 'someone@example.com',
        subject: 'Hello',
        text: 'Body line',
      });
      const message = received.join('\n');
      expect(message).toContain('Subject: Hello');
      expect(message).toContain('To: someone@example.com');
      expect(message).toContain('From: Portal <portal@example.com>');
      expect(message).toContain('Body line');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
