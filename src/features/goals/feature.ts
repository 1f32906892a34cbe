import type { Feature } from '../feature.js';
import { reachGoals } from './reach-goals.js';

/** Alert rules of forms (operator CLI: quorum form goal) and the crossing decided with each response. */
export const goalsFeature: Feature = { name: 'goals', responseConsumers: [reachGoals] };
