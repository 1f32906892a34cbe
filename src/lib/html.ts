const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Mustache render options escaping for HTML text and quoted attributes. Mustache's default also
 * escapes / and =, safe too, but it leaves links unreadable in the source some clients show.
 */
export const htmlEscaping = { escape: (value: unknown) => String(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]) };
