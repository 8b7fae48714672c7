import { defineConfig } from 'drizzle-kit';

/** PostgreSQL's migrations (`npx drizzle-kit generate --config drizzle.pg.config.ts`); SQLite's: drizzle.config.ts. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.pg.ts',
  out: './migrations/pg',
});
