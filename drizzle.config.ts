import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './infra/src/db/schema.ts',
  out: './infra/drizzle',
});
