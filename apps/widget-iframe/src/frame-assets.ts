import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readEncodedFile, type EncodedFile } from './encodings';

/**
 * dist/browser/widget-frame/manifest.json, as tools/browser/rollup-preset.mjs (`browserApp`) writes it, plus each
 * chunk's static imports (`imports`, added by the frame's rollup.config.mjs).
 */
export interface FrameManifest {
  entries: Record<string, string>;
  css: Record<string, string>;
  files: Record<string, { bytes: number; imports?: string[] }>;
}

/** What a document links: one module entry and its stylesheets, and the chunk of each language's texts. */
export interface FrameBundle {
  script: string;
  styles: string[];
  /** `de` → `widget.de-<hash>.js`: preloaded with the document when the server knows its language. */
  messages: Record<string, string>;
  /** The chunks each chunk imports statically (`widget.de-<hash>.js` → `cardinals-<hash>.js`), from the build. */
  imports: Record<string, readonly string[]>;
}

/**
 * The modules to preload with a document in `lang`: the entry's static imports and the language's texts chunk with
 * its own, recursively, the entry itself excepted (its `<script>` loads it). A browser learns of a module's imports
 * only once that module has arrived: preloading them all saves one round trip per level (a `modulepreload` fetches
 * the module it names, not its imports: https://html.spec.whatwg.org/multipage/links.html#link-type-modulepreload).
 */
export function modulePreloads(bundle: FrameBundle, lang: string): string[] {
  const found = new Set<string>();
  const visit = (file: string) => {
    for (const imported of bundle.imports[file] ?? []) {
      if (imported === bundle.script || found.has(imported)) continue;
      found.add(imported);
      visit(imported);
    }
  };
  visit(bundle.script);
  const messages = bundle.messages[lang];
  if (messages && !found.has(messages)) {
    found.add(messages);
    visit(messages);
  }
  return [...found];
}

/** The chunks rollup makes of libs/i18n's generated widget texts, one per language. */
const MESSAGES_CHUNK = /^widget\.(en-XA|en|de|fr|es)-[A-Za-z0-9_-]+\.js$/;

/** A served file name: one path segment of safe characters, never `.`/`..`, never the manifest itself. */
const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.(?:js|css|map|svg|png|woff2)$/;

export interface FrameAssets {
  /** The current manifest (re-read when the file changes, so a rebuild under `npm start` is picked up); null if not built. */
  manifest(): FrameManifest | null;
  /** The entry script and stylesheets for a document of this kind; null if the bundle is missing. */
  bundleFor(kind: 'frame' | 'hosted'): FrameBundle | null;
  /** Absolute path of a file the manifest lists, or null (unknown name, traversal attempt, not built). */
  resolve(name: string): string | null;
  /**
   * A file the manifest lists with its brotli and gzip twins (encodings.ts), read once per build and kept in memory
   * (the names are content-hashed, the files small); null as `resolve`, or when the file is missing.
   */
  load(name: string): EncodedFile | null;
}

export function createFrameAssets(frameDir: string): FrameAssets {
  const manifestPath = path.join(frameDir, 'manifest.json');
  let cached: { stamp: string; manifest: FrameManifest; files: Map<string, EncodedFile> } | null = null;

  function manifest(): FrameManifest | null {
    try {
      const stat = statSync(manifestPath);
      const stamp = `${stat.size}:${stat.mtimeMs}`;
      if (cached?.stamp !== stamp)
        cached = { stamp, manifest: parseManifest(readFileSync(manifestPath, 'utf8')), files: new Map() };
      return cached.manifest;
    } catch {
      cached = null;
      return null;
    }
  }

  function bundleFor(kind: 'frame' | 'hosted'): FrameBundle | null {
    const current = manifest();
    if (!current) return null;
    // One entry (`frame`) that reads the boot data's kind, or one per kind.
    const script = current.entries[kind] ?? current.entries['frame'] ?? Object.values(current.entries)[0];
    if (!script) return null;
    const own = current.css[kind] ?? current.css['frame'];
    const styles = own ? [own] : Object.values(current.css);
    const messages: Record<string, string> = {};
    for (const file of Object.keys(current.files)) {
      const lang = MESSAGES_CHUNK.exec(file)?.[1];
      if (lang) messages[lang] = file;
    }
    const imports: Record<string, readonly string[]> = {};
    for (const [file, { imports: listed }] of Object.entries(current.files)) {
      // Only files the manifest lists (and so serves): a preload of anything else would be a 404.
      const served = Array.isArray(listed) ? listed.filter((name) => Object.hasOwn(current.files, name)) : [];
      if (served.length > 0) imports[file] = served;
    }
    return { script, styles, messages, imports };
  }

  function resolve(name: string): string | null {
    if (!ASSET_NAME.test(name)) return null;
    const current = manifest();
    if (!current || !Object.prototype.hasOwnProperty.call(current.files, name)) return null;
    return path.join(frameDir, name);
  }

  function load(name: string): EncodedFile | null {
    const file = resolve(name);
    if (!file || !cached) return null;
    const loaded = cached.files.get(name);
    if (loaded) return loaded;
    try {
      const encoded = readEncodedFile(file);
      cached.files.set(name, encoded);
      return encoded;
    } catch {
      return null;
    }
  }

  return { manifest, bundleFor, resolve, load };
}

function parseManifest(text: string): FrameManifest {
  const raw = JSON.parse(text) as Partial<FrameManifest>;
  const record = (value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, never>) : {};
  return { entries: record(raw.entries), css: record(raw.css), files: record(raw.files) };
}
