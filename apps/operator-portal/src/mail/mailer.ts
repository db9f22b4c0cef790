import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { OutboxMail } from '@expedition/contracts';
import type { Clock, Logger } from '@expedition/platform';

export interface OutgoingMail {
  to: string;
  subject: string;
  /** Plain text: our mails are short and carry one link. */
  text: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
}

/** Real delivery through nodemailer to SMTP_URL (smtp:// or smtps://). */
export function createSmtpMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

const LINK = /https?:\/\/[^\s<>"']+/g;

/**
 * Embedded mode (no SMTP server): every message becomes `DATA_DIR/outbox/<time>-<id>.json` (what the dev page lists)
 * and a `.eml` twin rendered by nodemailer (opens in any mail client). Files are 0600: they hold live links.
 */
export function createOutboxMailer(options: { dir: string; from: string; clock: Clock; logger?: Logger }): Mailer & {
  list(): OutboxMail[];
} {
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = options.dir;
  return {
    kind: 'outbox',
    async send(mail) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const sentAt = options.clock.now();
      const id = `${sentAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
      const record: OutboxMail = {
        id,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        sentAt: sentAt.toISOString(),
        links: mail.text.match(LINK) ?? [],
      };
      const info = (await render.sendMail({ from: options.from, ...mail })) as unknown as { message: Buffer };
      writePrivate(path.join(dir, `${id}.eml`), info.message);
      writePrivate(path.join(dir, `${id}.json`), JSON.stringify(record, null, 2));
      options.logger?.info({ outbox: dir, subject: mail.subject }, 'mail written to the outbox');
    },
    list() {
      let names: string[];
      try {
        names = readdirSync(dir).filter((n) => n.endsWith('.json'));
      } catch {
        return [];
      }
      const mails: OutboxMail[] = [];
      for (const name of names) {
        try {
          mails.push(JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as OutboxMail);
        } catch {
          // a half-written or foreign file: skip it
        }
      }
      return mails.sort((a, b) => (a.sentAt < b.sentAt ? 1 : a.sentAt > b.sentAt ? -1 : b.id.localeCompare(a.id)));
    },
  };
}

function writePrivate(file: string, data: string | Buffer): void {
  writeFileSync(file, data, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export type OutboxMailer = ReturnType<typeof createOutboxMailer>;
