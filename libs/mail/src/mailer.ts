import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { OutboxMail } from '@expedition/contracts';
import type { Clock, Logger } from '@expedition/platform';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  /** The plain-text part (always sent: every client shows it, and it is what the dev outbox page displays). */
  text: string;
  /** An HTML alternative of the same content (inline styles only). */
  html?: string;
  attachments?: readonly MailAttachment[];
  /**
   * A Message-ID of the caller's choosing (`<local@domain>`). A message sent again after a crash carries the same id,
   * so mail clients and servers can recognise the twin; default: one made by nodemailer.
   */
  messageId?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
}

/** How long an SMTP exchange may take, step by step (nodemailer's defaults are minutes). */
export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 30_000 } as const;

function message(from: string, mail: OutgoingMail) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    ...(mail.attachments?.length ? { attachments: mail.attachments.map((a) => ({ ...a })) } : {}),
    ...(mail.messageId ? { messageId: mail.messageId } : {}),
  };
}

/** Real delivery through nodemailer to SMTP_URL (smtp:// or smtps://). */
export function createSmtpMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: SMTP_TIMEOUTS_MS.connection,
    greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
    socketTimeout: SMTP_TIMEOUTS_MS.socket,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail(message(options.from, mail));
    },
  };
}

const LINK = /https?:\/\/[^\s<>"']+/g;

/** An outbox mail's id as the outbox mailer makes it (`<ISO time with - for : and .>-<8 hex>`); nothing else is read. */
export const OUTBOX_ID = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f]{8}$/;

/**
 * Embedded mode (no SMTP server): every message becomes `<dir>/<time>-<id>.json` (what the portal's dev page lists)
 * and a `.eml` twin rendered by nodemailer, attachments included (opens in any mail client); the HTML part and each
 * attachment are also kept as they are (`<id>.html`, `<id>.attachment-<n>`), so the dev page can show the HTML as
 * the traveler sees it and offer the attachments. Files are 0600: they hold live links.
 */
export function createOutboxMailer(options: { dir: string; from: string; clock: Clock; logger?: Logger }): Mailer & {
  list(): OutboxMail[];
  /** The HTML part of mail `id`, if it had one. */
  html(id: string): string | undefined;
  /** Attachment `index` (its position in the record's `attachments`) of mail `id`. */
  attachment(id: string, index: number): { filename: string; content: Buffer } | undefined;
} {
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = options.dir;
  return {
    kind: 'outbox',
    async send(mail) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const sentAt = options.clock.now();
      const id = `${sentAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
      const info = (await render.sendMail(message(options.from, mail))) as unknown as { message: Buffer };
      const record: OutboxMail = {
        id,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        sentAt: sentAt.toISOString(),
        links: mail.text.match(LINK) ?? [],
        ...(mail.attachments?.length ? { attachments: mail.attachments.map((a) => a.filename) } : {}),
      };
      writePrivate(path.join(dir, `${id}.eml`), info.message);
      if (mail.html) writePrivate(path.join(dir, `${id}.html`), mail.html);
      mail.attachments?.forEach((a, n) => writePrivate(path.join(dir, `${id}.attachment-${n}`), a.content));
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
    html(id) {
      return OUTBOX_ID.test(id) ? readIfPresent(path.join(dir, `${id}.html`))?.toString('utf8') : undefined;
    },
    attachment(id, index) {
      if (!OUTBOX_ID.test(id) || !Number.isSafeInteger(index) || index < 0) return undefined;
      const record = readIfPresent(path.join(dir, `${id}.json`));
      const filename = record && (JSON.parse(record.toString('utf8')) as OutboxMail).attachments?.[index];
      const content = filename ? readIfPresent(path.join(dir, `${id}.attachment-${index}`)) : undefined;
      return filename && content ? { filename, content } : undefined;
    },
  };
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writePrivate(file: string, data: string | Buffer): void {
  writeFileSync(file, data, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export type OutboxMailer = ReturnType<typeof createOutboxMailer>;

/** Where the embedded outbox lives: one folder under DATA_DIR for every app of the platform. */
export const outboxDirOf = (dataDir: string) => path.join(path.resolve(dataDir), 'outbox');

/**
 * The platform's one rule for choosing a mailer: SMTP when SMTP_URL is set; otherwise, outside production, the
 * embedded outbox under DATA_DIR; in production without SMTP_URL, none (each app's config refuses to start then).
 */
export function mailerFromConfig(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  production: boolean;
  clock: Clock;
  logger?: Logger;
}): { mailer: Mailer; outbox?: OutboxMailer; outboxDir?: string } | null {
  if (options.smtpUrl) return { mailer: createSmtpMailer({ smtpUrl: options.smtpUrl, from: options.from }) };
  if (options.production) return null;
  const dir = outboxDirOf(options.dataDir);
  const outbox = createOutboxMailer({ dir, from: options.from, clock: options.clock, logger: options.logger });
  return { mailer: outbox, outbox, outboxDir: dir };
}

/** The bare address of a `Name <address>` (or bare) From, for Message-IDs on the sender's own domain. */
export function mailDomainOf(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const domain = address.split('@')[1]?.trim();
  return domain && /^[A-Za-z0-9.-]+$/.test(domain) ? domain : 'expedition.localhost';
}

/** The default sender, and what MAIL_FROM overrides. */
export const DEFAULT_MAIL_FROM = 'Expedition Insurance <no-reply@expedition.localhost>';
