import { Type } from '@sinclair/typebox';

const Timestamp = Type.String({ format: 'date-time' });
const NullableText = Type.Union([Type.String(), Type.Null()]);

/** A form as the responses and statistics pages read it (describe-form.ts). */
export const PanelResponsesForm = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    anonymous: Type.Boolean({ description: 'Reports apply the anonymity floor' }),
    responseCount: Type.Integer({ minimum: 0 }),
    dims: Type.Array(Type.Object({ key: Type.String(), kind: Type.String() }), { description: 'The dims responses may be filtered by' }),
    sections: Type.Array(Type.Ref('FormSection')),
  },
  { title: 'Form (for responses)' },
);

/** One response with what the response page shows beside it (get-response-context.ts). */
export const PanelResponseContext = Type.Object(
  {
    response: Type.Ref('ResponseRecord'),
    invite: Type.Union([
      Type.Object({
        id: Type.String(),
        status: Type.String(),
        name: NullableText,
        email: NullableText,
        phone: NullableText,
        externalId: NullableText,
        createdAt: Timestamp,
      }),
      Type.Null(),
    ]),
    cases: Type.Array(
      Type.Object({
        id: Type.String(),
        number: Type.Integer(),
        flowKey: Type.String(),
        status: Type.String(),
        stepName: NullableText,
        dueAt: Type.Union([Timestamp, Type.Null()]),
        outcome: NullableText,
        openedAt: Timestamp,
      }),
    ),
  },
  { title: 'Response (with its invite and cases)' },
);
