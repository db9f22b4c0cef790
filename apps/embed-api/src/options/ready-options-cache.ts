/** A serialized ready payload (UTF-8 JSON bytes) and the operator allowed to read it. */
export interface CachedReadyOptions {
  operatorId: string;
  body: Buffer;
}

export interface ReadyOptionsCache {
  get(quoteId: string): CachedReadyOptions | undefined;
  set(quoteId: string, entry: CachedReadyOptions): void;
}

/**
 * Ready payloads never change: the option rows are written once, in the transaction that flips the quote to ready,
 * and everything else in the payload comes from the in-code catalog, which changes only with a deploy. So a ready
 * payload is cached per process (LRU, `maxEntries`) without expiry, and a poll of a ready quote by its own operator
 * costs no database round trip. Pending quotes are never cached.
 */
export function createReadyOptionsCache(maxEntries = 5_000): ReadyOptionsCache {
  const map = new Map<string, CachedReadyOptions>();
  return {
    get(quoteId) {
      const entry = map.get(quoteId);
      if (entry === undefined) return undefined;
      map.delete(quoteId);
      map.set(quoteId, entry);
      return entry;
    },
    set(quoteId, entry) {
      map.delete(quoteId);
      map.set(quoteId, entry);
      if (map.size > maxEntries) {
        const oldest = map.keys().next();
        if (!oldest.done) map.delete(oldest.value);
      }
    },
  };
}
