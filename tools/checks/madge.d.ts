// Minimal typings for the part of madge the cycle check uses (madge 8 ships none).
declare module 'madge' {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string;
    excludeRegExp?: RegExp[];
  }
  interface MadgeInstance {
    /** Each cycle as the files on it, relative to baseDir, in import order (the last imports the first). */
    circular(): string[][];
    /** Every file read, with the files it imports. */
    obj(): Record<string, string[]>;
    /** Imports that resolved to nothing on disk (packages, missing files). */
    warnings(): { skipped: string[] };
  }
  function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeInstance>;
  export default madge;
}
