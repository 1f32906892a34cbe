/**
 * The file types a FILE answer accepts, each with the leading bytes its content must have: the
 * type a client claims is checked against the content, so a page cannot store an executable as
 * "image/png". Text types must be UTF-8 without NUL.
 */
const startsWith = (bytes: number[], offset = 0) => (data: Buffer) => data.length >= offset + bytes.length && bytes.every((byte, i) => data[offset + i] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
const zip = startsWith([0x50, 0x4b, 0x03, 0x04]);
const utf8Text = (data: Buffer) => !data.includes(0) && new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data) !== undefined;

function decodes(test: (data: Buffer) => boolean) {
  return (data: Buffer) => {
    try {
      return test(data);
    } catch {
      return false;
    }
  };
}

export const UPLOAD_TYPES: Readonly<Record<string, (data: Buffer) => boolean>> = {
  'image/jpeg': startsWith([0xff, 0xd8, 0xff]),
  'image/png': startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/gif': (data) => startsWith(ascii('GIF87a'))(data) || startsWith(ascii('GIF89a'))(data),
  'image/webp': (data) => startsWith(ascii('RIFF'))(data) && startsWith(ascii('WEBP'), 8)(data),
  'application/pdf': startsWith(ascii('%PDF-')),
  'text/plain': decodes(utf8Text),
  'text/csv': decodes(utf8Text),
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': zip,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': zip,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': zip,
};

export const UPLOAD_MIME_TYPES = Object.keys(UPLOAD_TYPES);

/** Largest file a FILE answer takes. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The media type without parameters, lower-cased ("Text/Plain; charset=utf-8" → "text/plain"). */
export function bareMime(mime: string): string {
  return mime.split(';')[0].trim().toLowerCase();
}

/** True when the type is accepted and the content has its signature. */
export function contentMatches(mime: string, data: Buffer): boolean {
  const test = UPLOAD_TYPES[mime];
  return test !== undefined && test(data);
}
