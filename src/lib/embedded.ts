/**
 * What a single compiled binary carries inside it. `scripts/compile.ts` writes an entry that fills
 * this before the server starts; a normal run reads the same things from disk.
 */
export type Embedded = {
  migrations: { tag: string; sql: string }[];
  /** PostgreSQL's (migrations/pg), for DATABASE_URL. */
  postgresMigrations: { tag: string; sql: string }[];
  /** URL path (e.g. `/assets/main-abc.js`) → path Bun can open with Bun.file(). */
  webFiles: Map<string, string>;
  /** The message catalogues (`locales/<code>.json`) as text, by language. */
  catalogues?: Record<string, string>;
};

const holder = globalThis as { __classroomEmbedded?: Embedded };

export function setEmbedded(embedded: Embedded): void {
  holder.__classroomEmbedded = embedded;
}

export function getEmbedded(): Embedded | undefined {
  return holder.__classroomEmbedded;
}
