// Copies non-TypeScript assets (SQL migrations, static files) next to the compiled code.
import { cpSync, existsSync } from 'node:fs';
for (const dir of ['db/migrations', 'features/demo/data']) {
  if (existsSync(`src/${dir}`)) cpSync(`src/${dir}`, `dist/${dir}`, { recursive: true, filter: (p) => !p.endsWith('.ts') });
}
