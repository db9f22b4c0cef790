import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import {
  BlockedAddressError,
  createGuardedLookup,
  refusedAddressClass,
  type OutboundPolicy,
} from '@expedition/platform';
import type { WebhookTransport } from './webhook-sender';

/**
 * Idle connections are closed after this long: under the usual server keep-alive timeouts (Node's default is 5 s),
 * so a POST rarely goes out on a connection the receiver is closing at that very moment.
 */
const IDLE_SOCKET_MS = 4_000;

export interface KeepAliveTransport {
  send: WebhookTransport;
  /** Closes the pooled connections (the worker stopped). */
  close(): void;
}

/**
 * Webhook POSTs with node:http(s) over keep-alive agents: one pooled connection per receiver and request in flight,
 * reused from round to round. It costs a fraction of fetch's CPU per request, which builds WHATWG Request, Response,
 * stream and AbortSignal objects around each one (a loopback POST: ~150 µs against ~560 µs of CPU, measured on the
 * 2-core bench machine). Redirects are never followed (node:http does not), so a 3xx comes back as it is.
 *
 * Every connection goes only where `policy` allows (docs/deploy.md, "Outbound requests"): a host name through the
 * agents' guarded lookup (the address actually dialled is checked, after DNS, so rebinding cannot pass), an IP
 * literal before the request starts. A refused target fails with a BlockedAddressError and nothing is sent.
 */
export function createKeepAliveTransport(policy: OutboundPolicy): KeepAliveTransport {
  const lookup: LookupFunction = createGuardedLookup(policy);
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, lookup }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, lookup }),
  };

  const send: WebhookTransport = (url, { headers, body, timeoutMs }) =>
    new Promise<number>((resolve, reject) => {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        reject(new Error(`unsupported protocol ${target.protocol}`));
        return;
      }
      // Node dials an IP literal without calling lookup: judge it here.
      const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
      const refused = isIP(literal) ? refusedAddressClass(literal, policy) : null;
      if (refused) {
        reject(new BlockedAddressError(literal, literal, refused));
        return;
      }
      const request = (target.protocol === 'https:' ? https.request : http.request)(target, {
        method: 'POST',
        agent: agents[target.protocol],
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      });
      // One deadline for the whole exchange, body included: a receiver that trickles its answer is cut off too.
      const timer = setTimeout(() => request.destroy(timeoutError(timeoutMs)), timeoutMs);
      request.once('response', (res) => {
        // The answer's body is not used: drain it so the connection goes back to the pool. An error while draining
        // (the receiver hung up) changes nothing: the status is what counts.
        res.on('error', () => undefined);
        res.once('close', () => clearTimeout(timer));
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      request.end(body);
    });

  return {
    send,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function timeoutError(timeoutMs: number): Error {
  const err = new Error(`no answer within ${timeoutMs} ms`);
  err.name = 'TimeoutError';
  return err;
}
