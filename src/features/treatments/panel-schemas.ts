import { Type, type Static } from '@sinclair/typebox';
import { cursorQueryFields } from '../../platform/app/pagination.js';
import { closed, NullableString, OneOf } from '../../lib/schema-pieces.js';
import { TREATMENT_OUTCOMES } from '../events/index.js';
import { MAX_REASON_LENGTH } from './close-case.js';
import { TreatmentWithHistory } from './schemas.js';
import { TREATMENT_STATUSES } from './table.js';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const BoardRow = Type.Object({
  formId: Type.String(),
  formName: Type.String(),
  flowKey: Type.String(),
  flowName: Type.String({ description: "The flow's name (its key when the flow was removed from the form)" }),
  open: Type.Integer({ description: 'Open cases, overdue ones included' }),
  overdue: Type.Integer({ description: 'Open cases whose current step passed its deadline' }),
  closed: Type.Integer(),
});

export const CaseListQuery = Type.Object(
  {
    ...cursorQueryFields,
    status: Type.Optional(OneOf(TREATMENT_STATUSES)),
    overdue: Type.Optional(Type.Boolean({ description: 'true: only overdue open cases; false: only open cases not overdue' })),
    formId: Type.Optional(Type.String({ pattern: UUID })),
    flowKey: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  closed,
);
export type CaseListQuery = Static<typeof CaseListQuery>;

export const CaseParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'Case id' }) });
export type CaseParams = Static<typeof CaseParams>;

export const CloseCaseBody = Type.Object(
  {
    outcome: Type.String({ maxLength: 32, description: `One of ${TREATMENT_OUTCOMES.filter((o) => o !== 'resolved').join(', ')} (resolved comes from advancing the last step)` }),
    reason: Type.Optional(Type.String({ maxLength: MAX_REASON_LENGTH, description: 'Why the case closes early: required' })),
  },
  closed,
);
export type CloseCaseBody = Static<typeof CloseCaseBody>;

/** The case page: the case and its history, the company's time zone, the response that opened it. */
export const CasePage = Type.Object(
  {
    ...TreatmentWithHistory.properties,
    timeZone: Type.String({ description: 'The company’s IANA time zone: deadlines count working days in it' }),
    response: Type.Union([
      Type.Object({
        id: Type.String(),
        createdAt: Type.String(),
        respondentName: NullableString,
        answers: Type.Array(Type.Object({ question: Type.String(), answer: Type.String() }), { description: 'In the form’s order and words' }),
      }),
      Type.Null(),
    ]),
  },
  { title: 'Case page' },
);
