/** Every piece of code reads time through a Clock so tests can move it instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved; used by tests and by the demo seeder. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string | number = Date.now()) {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(to: Date | string | number): void {
    this.current = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
