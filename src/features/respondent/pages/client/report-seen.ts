/// <reference lib="dom" />
/**
 * Reports once that the page reached a person: it is visible and someone touched, scrolled or typed
 * in it. That report opens the invite (docs/contract.md, "Opens"); a mail scanner or link checker
 * that loads the page, even running its script, and leaves never sends it.
 */
const PERSON_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'wheel', 'scroll'] as const;

export function reportSeen(url: string) {
  const report = (event: Event) => {
    // events a script makes up (dispatchEvent) are not a person's
    if (!event.isTrusted || document.visibilityState !== 'visible') return;
    for (const type of PERSON_EVENTS) window.removeEventListener(type, report, true);
    fetch(url, { method: 'POST', keepalive: true, credentials: 'omit', referrerPolicy: 'no-referrer' }).catch(() => undefined);
  };
  for (const type of PERSON_EVENTS) window.addEventListener(type, report, { capture: true, passive: true });
}
