/**
 * `npm run dev`: the service from source, restarted by `tsx watch` on every change under src/, and
 * the panel from Vite's dev server with hot reload, which forwards /panel/api (and the respondent
 * pages, /v1, /dev/mail) to the service. The panel's public address is Vite's, so the one-time links
 * the service prints, its cookies and its CSRF origin check all match the page the browser opened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'vite';

const port = Number(process.env.PORT ?? '3000');
const panelPort = Number(process.env.PANEL_DEV_PORT ?? String(port + 1));
const service = `http://127.0.0.1:${port}`;
const panelUrl = process.env.PUBLIC_PANEL_URL ?? `http://localhost:${panelPort}/panel`;

function log(line: string): void {
  process.stderr.write(`[dev] ${line}\n`);
}

// Middleware mode: Vite on our own HTTP server, so a stop signal is ours to handle (Vite's own
// server would exit on SIGTERM before the service behind it has stopped).
const http = createHttpServer();
const vite = await createServer({
  configFile: 'web/panel/vite.config.ts',
  server: {
    middlewareMode: true,
    hmr: { server: http },
    // Everything but the panel's own source (all under /panel/, the app's base) goes to the service:
    // /panel/api, /v1, the respondent pages, /dev/mail, /docs.
    proxy: { '^(?:/(?!panel/)|/panel/api)': { target: service, xfwd: true } },
  },
});
http.on('request', vite.middlewares);
await new Promise<void>((resolve) => http.listen(panelPort, resolve));
log(`panel with hot reload at http://localhost:${panelPort}/panel/ (service on ${service})`);

// --clear-screen=false keeps the printed key and sign-in link on screen across restarts.
const child: ChildProcess = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'src/cli/main.ts', 'start', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(port), PUBLIC_PANEL_URL: panelUrl },
});

let closing = false;
async function close(code: number): Promise<void> {
  if (closing) return;
  closing = true;
  const stopped = child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null;
  child.kill('SIGTERM');
  http.closeAllConnections();
  await Promise.all([stopped, vite.close(), new Promise((resolve) => http.close(resolve))]);
  process.exit(code);
}
child.on('exit', (code) => void close(code ?? 0));
process.on('SIGINT', () => void close(0));
process.on('SIGTERM', () => void close(0));
