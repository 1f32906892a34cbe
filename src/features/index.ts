import type { Feature } from './feature.js';
import { eventsFeature } from './events/feature.js';
import { formsFeature } from './forms/feature.js';
import { keysFeature } from './keys/feature.js';
import { responsesFeature } from './responses/feature.js';
import { rostersFeature } from './rosters/feature.js';
import { invitesFeature } from './invites/feature.js';
import { callbacksFeature } from './callbacks/feature.js';
import { suppressionFeature } from './suppression/feature.js';
import { messagingFeature } from './messaging/feature.js';
import { statisticsFeature } from './statistics/feature.js';
import { webhooksFeature } from './webhooks/feature.js';
import { goalsFeature } from './goals/feature.js';
import { respondentFeature } from './respondent/feature.js';
import { treatmentsFeature } from './treatments/feature.js';
import { membersFeature } from './members/feature.js';
import { auditFeature } from './audit/feature.js';
import { sessionsFeature } from './sessions/feature.js';
import { companiesFeature } from './companies/feature.js';
import { idempotencyFeature } from './idempotency/feature.js';
import { ratesFeature } from './rates/feature.js';
import { remindersFeature } from './reminders/feature.js';

/** Every feature of the service, one line each: the only list a new feature joins. */
export const features: readonly Feature[] = [keysFeature, formsFeature, responsesFeature, eventsFeature, webhooksFeature, rostersFeature, invitesFeature, callbacksFeature, suppressionFeature, messagingFeature, statisticsFeature, goalsFeature, respondentFeature, treatmentsFeature, sessionsFeature, membersFeature, auditFeature, companiesFeature, idempotencyFeature, ratesFeature, remindersFeature];
