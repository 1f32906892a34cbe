import { describe, expect, it } from 'vitest';
import { workingCalendar, workingDeadline } from './working-days.js';

/** The deadline of a step of `days` working days started at `start`, in `zone` (country: public holidays). */
const due = (zone: string, start: string, days: number, country: string | null = null, own: string[] = []) =>
  workingDeadline(workingCalendar(zone, country, own), new Date(start), days).toISOString();

describe('working-day deadlines', () => {
  it('ends at the close of the n-th working day after the start day, Monday to Friday', () => {
    expect(due('UTC', '2026-03-04T10:00:00Z', 2)).toBe('2026-03-06T23:59:59.999Z'); // Wed → Fri
    expect(due('UTC', '2026-03-06T10:00:00Z', 1)).toBe('2026-03-09T23:59:59.999Z'); // Fri → Mon
    expect(due('UTC', '2026-03-06T10:00:00Z', 5)).toBe('2026-03-13T23:59:59.999Z');
  });

  it('starts counting on Monday for a case opened on a weekend', () => {
    expect(due('UTC', '2026-03-07T08:00:00Z', 1)).toBe('2026-03-09T23:59:59.999Z'); // Sat → Mon
    expect(due('UTC', '2026-03-08T23:30:00Z', 1)).toBe('2026-03-09T23:59:59.999Z'); // Sun → Mon
    expect(due('UTC', '2026-03-08T23:30:00Z', 3)).toBe('2026-03-11T23:59:59.999Z');
  });

  it('crosses month and year ends', () => {
    expect(due('UTC', '2026-03-31T09:00:00Z', 3)).toBe('2026-04-03T23:59:59.999Z');
    expect(due('UTC', '2026-02-27T09:00:00Z', 1)).toBe('2026-03-02T23:59:59.999Z'); // Fri 27 Feb → Mon 2 Mar
    expect(due('UTC', '2026-12-30T09:00:00Z', 2)).toBe('2027-01-01T23:59:59.999Z'); // no country: 1 Jan is a Friday like any
    expect(due('UTC', '2026-12-30T09:00:00Z', 2, 'PT')).toBe('2027-01-04T23:59:59.999Z'); // Portugal: 1 Jan is a holiday
  });

  it("skips the company's own holidays and the country's public holidays", () => {
    expect(due('UTC', '2026-03-06T10:00:00Z', 1, null, ['2026-03-09'])).toBe('2026-03-10T23:59:59.999Z');
    expect(due('UTC', '2026-03-06T10:00:00Z', 2, null, ['2026-03-09', '2026-03-10'])).toBe('2026-03-12T23:59:59.999Z');
    // 1 May (Friday) is Labour Day in Portugal
    expect(due('Europe/Lisbon', '2026-04-30T09:00:00Z', 2)).toBe('2026-05-04T22:59:59.999Z');
    expect(due('Europe/Lisbon', '2026-04-30T09:00:00Z', 2, 'PT')).toBe('2026-05-05T22:59:59.999Z');
  });

  it('counts days in the company time zone (São Paulo, UTC−3)', () => {
    // 02:00 UTC on Friday is still Thursday 23:00 in São Paulo: the first working day is that Friday
    expect(due('America/Sao_Paulo', '2026-03-06T02:00:00Z', 1)).toBe('2026-03-07T02:59:59.999Z');
    expect(due('UTC', '2026-03-06T02:00:00Z', 1)).toBe('2026-03-09T23:59:59.999Z');
    // Tiradentes (Tuesday 21 April) is a public holiday in Brazil
    expect(due('America/Sao_Paulo', '2026-04-20T12:00:00Z', 1, 'BR')).toBe('2026-04-23T02:59:59.999Z');
  });

  it('keeps local midnight across daylight-saving changes (Lisbon in March, Auckland in April)', () => {
    // Lisbon moves to UTC+1 on Sunday 29 March 2026: the Monday deadline is 23:59:59.999 WEST
    expect(due('Europe/Lisbon', '2026-03-27T12:00:00Z', 1)).toBe('2026-03-30T22:59:59.999Z');
    // and back to UTC+0 on Sunday 25 October
    expect(due('Europe/Lisbon', '2026-10-23T12:00:00Z', 1)).toBe('2026-10-26T23:59:59.999Z');
    // Auckland leaves UTC+13 for UTC+12 on Sunday 5 April 2026
    expect(due('Pacific/Auckland', '2026-04-02T21:00:00Z', 1)).toBe('2026-04-06T11:59:59.999Z');
    // with New Zealand's holidays Easter Monday (6 April) is skipped too
    expect(due('Pacific/Auckland', '2026-04-02T21:00:00Z', 1, 'NZ')).toBe('2026-04-07T11:59:59.999Z');
    // and gains an hour again on Sunday 27 September
    expect(due('Pacific/Auckland', '2026-09-24T21:00:00Z', 1)).toBe('2026-09-28T10:59:59.999Z');
  });
});
