import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createOutboxMailer, createSmtpMailer, mailDomainOf, type OutgoingMail } from '../src';

const mail: OutgoingMail = {
  to: 'traveler@example.test',
  subject: 'Your policy POL-1',
  text: 'Open https://quote.example.test/p/1 to see it.',
  html: '<p>Open <a href="https://quote.example.test/p/1">your policy</a>.</p>',
  attachments: [
    { filename: 'certificate-POL-1.pdf', content: Buffer.from('%PDF-1.4 test'), contentType: 'application/pdf' },
  ],
  messageId: '<policy-POL-1.confirmation@expedition.test>',
};

describe('createSmtpMailer', () => {
  let server: SMTPServer;
  let port: number;
  const received: Buffer[] = [];
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks));
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the text and HTML parts, the attachment and the Message-ID it was given', async () => {
    await createSmtpMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Expedition <no-reply@expedition.test>' }).send(
      mail,
    );
    expect(received).toHaveLength(1);
    const parsed = await simpleParser(received[0]!);
    expect(parsed.subject).toBe(mail.subject);
    expect(parsed.text).toContain('https://quote.example.test/p/1');
    expect(parsed.html).toContain('<a href="https://quote.example.test/p/1">');
    expect(parsed.messageId).toBe(mail.messageId);
    expect(parsed.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([
      ['certificate-POL-1.pdf', 'application/pdf', '%PDF-1.4 test'],
    ]);
  });
});

describe('createOutboxMailer', () => {
  it('keeps the whole message (.eml with its attachment) and lists the attachment names; files are private', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    try {
      const outbox = createOutboxMailer({
        dir,
        from: 'no-reply@expedition.test',
        clock: { now: () => new Date('2027-01-01T00:00:00Z') },
      });
      await outbox.send(mail);
      const [listed] = outbox.list();
      expect(listed).toMatchObject({
        to: mail.to,
        subject: mail.subject,
        attachments: ['certificate-POL-1.pdf'],
        links: ['https://quote.example.test/p/1'],
      });
      const eml = path.join(dir, `${listed!.id}.eml`);
      expect(statSync(eml).mode & 0o777).toBe(0o600);
      const parsed = await simpleParser(readFileSync(eml));
      expect(parsed.attachments[0]?.content.toString()).toBe('%PDF-1.4 test');
      expect(parsed.html).toContain('your policy');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives back the HTML part and each attachment as sent (the dev outbox page shows them); nothing for other ids', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    try {
      const outbox = createOutboxMailer({ dir, from: 'no-reply@expedition.test', clock: { now: () => new Date() } });
      await outbox.send(mail);
      await outbox.send({ to: mail.to, subject: 'Text only', text: 'Hello.' });
      const [textOnly, full] = outbox.list().sort((a, b) => a.subject.localeCompare(b.subject));
      expect(outbox.html(full!.id)).toBe(mail.html);
      expect(outbox.attachment(full!.id, 0)).toEqual({
        filename: 'certificate-POL-1.pdf',
        content: Buffer.from('%PDF-1.4 test'),
      });
      expect(statSync(path.join(dir, `${full!.id}.attachment-0`)).mode & 0o777).toBe(0o600);
      expect(outbox.html(textOnly!.id)).toBeUndefined();
      expect(outbox.attachment(full!.id, 1)).toBeUndefined();
      expect(outbox.attachment(full!.id, -1)).toBeUndefined();
      expect(outbox.html(`../${full!.id}`)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('mailDomainOf', () => {
  it('takes the domain of MAIL_FROM, with or without a display name', () => {
    expect(mailDomainOf('Expedition <no-reply@mail.expedition.test>')).toBe('mail.expedition.test');
    expect(mailDomainOf('no-reply@expedition.test')).toBe('expedition.test');
    expect(mailDomainOf('nobody')).toBe('expedition.localhost');
  });
});
