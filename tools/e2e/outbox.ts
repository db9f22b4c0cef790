import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { outboxDirOf } from '@expedition/mail';

/** One record of the embedded outbox (libs/mail): the `.json` the portal's /dev/outbox lists, beside its `.eml`. */
export interface OutboxRecord {
  id: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
  links: string[];
  attachments?: string[];
}

/** Every mail in DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): OutboxRecord[] {
  const dir = outboxDirOf(dataDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(readFileSync(path.join(dir, n), 'utf8')) as OutboxRecord)
    .sort((a, b) => a.sentAt.localeCompare(b.sentAt));
}

/** The confirmation mails of one policy (its number is in the subject). */
export const mailsOf = (dataDir: string, policyNumber: string) =>
  readOutbox(dataDir).filter((m) => m.subject.includes(policyNumber));

/** Polls the outbox until `policyNumber`'s confirmation mail is there (the dispatcher's mail worker writes it). */
export async function waitForMail(dataDir: string, policyNumber: string, timeoutMs = 30_000): Promise<OutboxRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = mailsOf(dataDir, policyNumber)[0];
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no confirmation mail for ${policyNumber} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The whole message (`.eml`, attachments included), parsed as a mail client would. */
export function parseEml(dataDir: string, record: OutboxRecord): Promise<ParsedMail> {
  return simpleParser(readFileSync(path.join(outboxDirOf(dataDir), `${record.id}.eml`)));
}

/** The text of a PDF, through poppler's pdftotext (what a person's PDF reader shows). */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
