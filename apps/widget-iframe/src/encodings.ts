import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/**
 * Static files served in three encodings: the identity bytes and their brotli and gzip twins. The twins are built
 * once, at build time, next to each file (`<file>.br`, `<file>.gz`: tools/browser/rollup-preset.mjs `precompressed`);
 * the server takes a twin only if it decompresses to exactly the identity bytes, and otherwise (not built, stale,
 * the pinned releases, which are never rewritten) compresses the bytes once, in memory, when it loads them.
 */
export type Coding = 'br' | 'gzip' | 'identity';

export interface EncodedFile {
  /** The identity bytes. */
  bytes: Buffer;
  /** Strong validator of the identity bytes: the quoted sha256 (hex). The twins' tags add `-br` / `-gz`. */
  etag: string;
  br: Buffer;
  gzip: Buffer;
}

/** The settings of the build's twins (tools/browser/rollup-preset.mjs): the smallest output, whatever it costs once. */
export const compressBrotli = (bytes: Buffer): Buffer =>
  brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
export const compressGzip = (bytes: Buffer): Buffer => gzipSync(bytes, { level: 9 });

export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('hex')}"`;
}

/** The identity bytes with their twins: the given ones if they decompress to exactly `bytes`, else freshly compressed. */
export function encodeFile(
  bytes: Buffer,
  twins: { br?: Buffer | null; gzip?: Buffer | null } = {},
  etag = etagOf(bytes),
): EncodedFile {
  const br = twins.br && decodesTo(twins.br, bytes, brotliDecompressSync) ? twins.br : compressBrotli(bytes);
  const gzip = twins.gzip && decodesTo(twins.gzip, bytes, gunzipSync) ? twins.gzip : compressGzip(bytes);
  return { bytes, etag, br, gzip };
}

/** Reads `file` and its build twins `file.br`, `file.gz` (see encodeFile). Throws if `file` itself is unreadable. */
export function readEncodedFile(file: string): EncodedFile {
  const bytes = readFileSync(file);
  return encodeFile(bytes, { br: readOptional(`${file}.br`), gzip: readOptional(`${file}.gz`) });
}

function readOptional(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

function decodesTo(twin: Buffer, bytes: Buffer, decode: (buf: Buffer) => Buffer): boolean {
  try {
    return decode(twin).equals(bytes);
  } catch {
    return false;
  }
}

/**
 * The content coding to send for an `Accept-Encoding` header (RFC 9110 §12.5.3): the highest q-value among br, gzip
 * and identity, ties going to br, then gzip, then identity. `*` stands for every coding not listed; identity is
 * acceptable unless `identity;q=0` (or `*;q=0` with identity unlisted) excludes it, and ranks last when unlisted.
 * No header at all, an empty one, or nothing acceptable: identity (the RFC's advice when nothing listed is available).
 */
export function negotiateEncoding(header: string | undefined): Coding {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (!name || weights.has(name)) continue;
    let q = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=').map((s) => s.trim());
      if (key.toLowerCase() !== 'q') continue;
      q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : 0;
    }
    weights.set(name === 'x-gzip' ? 'gzip' : name, q);
  }
  const star = weights.get('*');
  const candidates: Array<[Coding, number]> = [
    ['br', weights.get('br') ?? star ?? 0],
    ['gzip', weights.get('gzip') ?? star ?? 0],
    ['identity', weights.get('identity') ?? star ?? 0.001],
  ];
  let best: [Coding, number] = ['identity', 0];
  for (const candidate of candidates) if (candidate[1] > best[1]) best = candidate;
  return best[0];
}

/** The validator of one encoding: the identity tag, or it with `-br` / `-gz` before the closing quote. */
export function etagFor(file: EncodedFile, coding: Coding): string {
  return coding === 'identity' ? file.etag : `${file.etag.slice(0, -1)}-${coding === 'br' ? 'br' : 'gz'}"`;
}

/** RFC 9110 If-None-Match: `*` or a list of entity tags, weak comparison (W/ is ignored). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => strip(tag) === etag);
}

/**
 * Answers GET and HEAD with the negotiated encoding of `file`: `Vary: Accept-Encoding` on every answer (304 too),
 * the encoding's ETag, `Content-Encoding` unless identity, and `Content-Length` of the bytes sent (or that GET would
 * send, for HEAD). `Cache-Control` and the content type are the caller's.
 */
export function sendEncoded(req: Request, res: Response, file: EncodedFile): void {
  const coding = negotiateEncoding(req.get('Accept-Encoding'));
  const etag = etagFor(file, coding);
  res.vary('Accept-Encoding');
  res.setHeader('ETag', etag);
  if (matchesIfNoneMatch(req.get('If-None-Match'), etag)) {
    res.status(304).end();
    return;
  }
  const body = coding === 'identity' ? file.bytes : file[coding];
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', String(body.length));
  res.status(200);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}
