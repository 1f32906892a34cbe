import { ManualClock } from '../src/lib/clock.js';

let testRunning = false;

/**
 * A test app's clock. Moved during a file's or a describe's setup (beforeAll), it sets where every
 * following test starts; moved by a test, it is put back before the next one
 * (test/clock-per-test.ts), so no test sees where another left it.
 */
export class TestClock extends ManualClock {
  /** The clocks of the apps not yet closed. */
  static readonly live = new Set<TestClock>();
  private start: number;
  constructor(start: string) {
    super(start);
    this.start = this.now().getTime();
  }
  override set(to: Date | string | number): void {
    super.set(to);
    if (!testRunning) this.start = this.now().getTime();
  }
  override advance(ms: number): void {
    super.advance(ms);
    if (!testRunning) this.start = this.now().getTime();
  }
  /** Back to where the setup left it. */
  restart(): void {
    super.set(this.start);
  }
}

/** Before every test (test/clock-per-test.ts): each live clock back to its setup's time. */
export function enterTest(): void {
  for (const clock of TestClock.live) clock.restart();
  testRunning = true;
}

/** After every test: setup code that follows (a later describe's beforeAll) starts from the setup's time too. */
export function leaveTest(): void {
  testRunning = false;
  for (const clock of TestClock.live) clock.restart();
}
