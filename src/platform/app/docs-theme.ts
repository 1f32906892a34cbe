/**
 * The look of /docs: Quorum's name and colours on Swagger UI, and the few fixes its own markup
 * needs to pass axe (WCAG 2.1 AA): a logo with alternative text, a named server picker, readable
 * badge contrast, and the "explore another document" box hidden (one installation, one document).
 */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40" viewBox="0 0 150 40" role="img" aria-label="Quorum">
<circle cx="20" cy="20" r="14" fill="none" stroke="#ffffff" stroke-width="5"/><path d="M27 27l8 8" stroke="#ffffff" stroke-width="5" stroke-linecap="round"/>
<text x="44" y="28" font-family="system-ui, sans-serif" font-size="22" font-weight="700" fill="#ffffff">Quorum</text></svg>`;

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d3b6e"/>
<circle cx="15" cy="15" r="8" fill="none" stroke="#ffffff" stroke-width="3.5"/><path d="M20 20l6 6" stroke="#ffffff" stroke-width="3.5" stroke-linecap="round"/></svg>`;

const CSS = `
.swagger-ui .topbar { background-color: #1d3b6e; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .info .title small { background-color: #4a5160; }
.swagger-ui .info .title small.version-stamp { background-color: #3d6b0a; }
.swagger-ui .info .title small pre { color: #ffffff; }
.swagger-ui .info .url, .swagger-ui .info a, .swagger-ui .info__license__url .link { color: #1b5fa8; }
.swagger-ui .btn.authorize { color: #17653f; border-color: #17653f; }
.swagger-ui .btn.authorize svg { fill: #17653f; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background-color: #1b5fa8; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background-color: #9a5200; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background-color: #17653f; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background-color: #b3261e; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background-color: #176b5b; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #4a4a4a; }
.swagger-ui .microlight span[style*="rgb(211, 99, 99)"] { color: #f28b8b !important; }
`;

/** Runs after Swagger UI renders (and re-renders): names what its markup leaves unnamed. */
const JS = `(() => {
  const mend = () => {
    document.querySelectorAll('.topbar img:not([alt])').forEach((img) => img.setAttribute('alt', 'Quorum API reference'));
    const servers = document.getElementById('servers');
    if (servers && !servers.hasAttribute('aria-label')) servers.setAttribute('aria-label', 'Server');
  };
  new MutationObserver(mend).observe(document.documentElement, { childList: true, subtree: true });
  mend();
})();`;

export const docsTheme = {
  logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: '/docs', target: '_self' as const },
  theme: {
    title: 'Quorum API reference',
    css: [{ filename: 'quorum.css', content: CSS }],
    js: [{ filename: 'quorum.js', content: JS }],
    favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON) }],
  },
};
