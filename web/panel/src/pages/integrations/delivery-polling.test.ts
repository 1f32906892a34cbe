/** The delivery log's polling: only while a delivery is due within seconds, and never without end. */
import { describe, expect, it } from 'vitest';
import { pollWhileDueSoon, type PolledDelivery as Delivery } from './delivery-polling.js';

const NOW = Date.UTC(2026, 2, 2, 9, 0, 0);
const pending = (nextAttemptAt: string | null) => ({ status: 'pending', nextAttemptAt }) as Delivery;
const inSeconds = (s: number) => new Date(NOW + s * 1000).toISOString();

describe('pollWhileDueSoon', () => {
  it('polls every second while a pending delivery is due within a few seconds, or under way', () => {
    expect(pollWhileDueSoon([pending(inSeconds(3))], 1, false, NOW)).toBe(1000);
    expect(pollWhileDueSoon([pending(null)], 1, false, NOW)).toBe(1000);
  });

  it('does not poll for a retry due in minutes, nor for settled deliveries', () => {
    expect(pollWhileDueSoon([pending(inSeconds(600))], 1, false, NOW)).toBe(false);
    expect(pollWhileDueSoon([{ status: 'delivered', nextAttemptAt: null } as Delivery], 1, false, NOW)).toBe(false);
  });

  it('waits for a ping to appear, but stops after a bounded number of answers', () => {
    expect(pollWhileDueSoon([], 1, true, NOW)).toBe(1000);
    expect(pollWhileDueSoon([], 1, false, NOW)).toBe(false);
    expect(pollWhileDueSoon([], 30, true, NOW)).toBe(false);
    expect(pollWhileDueSoon([pending(inSeconds(1))], 30, false, NOW)).toBe(false);
  });
});
