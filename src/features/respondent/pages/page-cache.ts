/**
 * Rendered personal-link pages kept in memory, so a page someone already opened costs little more
 * than a static one (issue 28). Each invite's pages are kept under the version its one query
 * answers (invite-page-version.ts: the invite's, its draft's, its company's rows and its form's
 * definition); another version, or the clock past the invite's expiry or the form's closing,
 * drops them. Within an invite, a page per language and address (the language switch's links
 * repeat the address's query). Least recently used invites go first once the bytes exceed the budget.
 */
import type { LanguageOffer } from './page-language.js';

/** What serving a kept page needs besides its bytes: the language choice's inputs and the page's accent (its CSP). */
export interface KeptInvite {
  offer: LanguageOffer;
  accent: string | undefined;
  /** ms since the epoch from which the pages may no longer be shown (expiry, closing); Infinity: none */
  validUntil: number;
}

interface Entry {
  version: string;
  kept: KeptInvite;
  /** by variant (language and address), in insertion order: the oldest goes first past MAX_VARIANTS */
  pages: Map<string, string>;
  bytes: number;
}

/** Addresses differ only by their query; a few per invite cover `?lang=` and `?start=1` without letting one link fill the budget. */
const MAX_VARIANTS = 8;
/** Roughly what a page's key, map slots and buffer header cost beside its body. */
const OVERHEAD = 256;

/** A string's memory: one byte a character when all are Latin-1, else two (V8's two representations). */
const pageBytes = (page: string) => (/[^\u0000-\u00ff]/.test(page) ? 2 : 1) * page.length;

export const variantKey = (lang: string, url: string) => `${lang} ${url}`;

export class PageCache {
  /** by invite token, least recently used first (a Map keeps insertion order) */
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(readonly budgetBytes: number) {}

  get bytes(): number {
    return this.total;
  }

  /** The invite's kept pages if they are of this version and still valid at `now`; others are dropped. */
  find(token: string, version: string, now: number): { kept: KeptInvite; page: (variant: string) => string | undefined } | null {
    const entry = this.entries.get(token);
    if (!entry) return null;
    if (entry.version !== version || now >= entry.kept.validUntil) {
      this.drop(token, entry);
      return null;
    }
    this.entries.delete(token);
    this.entries.set(token, entry);
    return { kept: entry.kept, page: (variant) => entry.pages.get(variant) };
  }

  keep(token: string, version: string, kept: KeptInvite, variant: string, body: string): void {
    let entry = this.entries.get(token);
    if (entry && entry.version !== version) {
      this.drop(token, entry);
      entry = undefined;
    }
    if (!entry) {
      entry = { version, kept, pages: new Map(), bytes: token.length + OVERHEAD };
      this.total += entry.bytes;
    }
    this.entries.delete(token);
    this.entries.set(token, entry);
    const old = entry.pages.get(variant);
    if (old !== undefined) this.resize(entry, -(pageBytes(old) + variant.length + OVERHEAD));
    entry.pages.delete(variant);
    entry.pages.set(variant, body);
    this.resize(entry, pageBytes(body) + variant.length + OVERHEAD);
    if (entry.pages.size > MAX_VARIANTS) {
      const [oldest, page] = entry.pages.entries().next().value!;
      entry.pages.delete(oldest);
      this.resize(entry, -(pageBytes(page) + oldest.length + OVERHEAD));
    }
    for (const [least, first] of this.entries) {
      if (this.total <= this.budgetBytes) break;
      this.drop(least, first);
    }
  }

  private resize(entry: Entry, delta: number) {
    entry.bytes += delta;
    this.total += delta;
  }

  private drop(token: string, entry: Entry) {
    this.entries.delete(token);
    this.total -= entry.bytes;
  }
}
