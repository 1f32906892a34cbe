import { afterEach, beforeEach } from 'vitest';
import { enterTest, leaveTest } from './test-clock.js';

// Every test file gets these hooks, so a test sharing its file's app (beforeAll) still starts
// from the clock the setup left, whatever the previous test did with it.
beforeEach(enterTest);
afterEach(leaveTest);
