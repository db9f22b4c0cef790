/** RFC 9110 §11 auth-param syntax, just enough for `WWW-Authenticate: Payment …`. */

export interface ParsedAuthChallenge {
  scheme: string;
  /** Parameter names lowercased (they are case-insensitive); values unquoted and unescaped. */
  params: Record<string, string>;
}

/**
 * Always emits a quoted-string. Inside it `"` and `\` are backslash-escaped. Characters a header cannot
 * carry (controls, non-ASCII) become `?`, because only human text (description) can contain them.
 */
export function formatAuthParam(name: string, value: string): string {
  const safe = value.replace(/[^\t\x20-\x7e]/g, '?').replace(/[\\"]/g, (c) => `\\${c}`);
  return `${name}="${safe}"`;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/** Parses one header value that may hold several challenges (`Payment …, Payment …, Bearer …`). */
export function parseWwwAuthenticate(header: string): ParsedAuthChallenge[] {
  const challenges: ParsedAuthChallenge[] = [];
  let current: ParsedAuthChallenge | undefined;
  let i = 0;
  const skipSpaces = () => {
    while (header[i] === ' ' || header[i] === '\t') i++;
  };
  const readToken = () => {
    const match = TOKEN.exec(header.slice(i));
    if (match) i += match[0].length;
    return match?.[0];
  };
  const readQuoted = () => {
    let out = '';
    for (i++; i < header.length; i++) {
      const c = header[i];
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') i++;
      out += header[i] ?? '';
    }
    return out; // unterminated: keep what we have; the caller's checks reject a bad value
  };

  while (i < header.length) {
    skipSpaces();
    if (header[i] === ',') {
      i++;
      continue;
    }
    const token = readToken();
    if (!token) {
      i++;
      continue;
    }
    skipSpaces();
    if (header[i] === '=' && current) {
      i++;
      skipSpaces();
      current.params[token.toLowerCase()] = header[i] === '"' ? readQuoted() : (readToken() ?? '');
      continue;
    }
    current = { scheme: token, params: {} };
    challenges.push(current);
  }
  return challenges;
}
