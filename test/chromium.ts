/**
 * Debian's Chromium for the browser tests (never a downloaded browser), shared by the respondent
 * pages and the panel. Absent outside CI, the tests skip with a message; in CI (CI set) they run and fail.
 */
import { existsSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether browser tests run here; warns once, naming what is missing, when they skip. */
export function chromiumRuns(suite: string): boolean {
  if (existsSync(CHROMIUM) || process.env.CI) return true;
  console.warn(`Skipping ${suite}: ${CHROMIUM} is missing (apt-get install chromium); CI runs them.`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** axe-core at WCAG 2.1 A and AA: each violation as `rule: selectors` (an empty list passes). */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
