import { Type, type TSchema } from '@sinclair/typebox';

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Rate = Type.Unsafe<number | null>({ type: ['number', 'null'], minimum: 0, maximum: 1 });

const stageFields = {
  invited: Count('Invites of the form that are not revoked.'),
  sent: Count('Invites a message left for (or that went further).'),
  delivered: Count('Invites whose message was delivered (or that went further).'),
  opened: Count('Invites whose personal link was opened (or that went further).'),
  started: Count('Invites whose respondent answered something (or that went further).'),
  responded: Count('Invites answered.'),
  rates: Type.Object(
    { sent: Rate, delivered: Rate, opened: Rate, started: Rate, responded: Rate },
    { additionalProperties: false, description: 'Each count over invited, 0..1 rounded to four decimals; null when invited is 0.' },
  ),
};

const Group = Type.Object(
  {
    id: Type.String({ description: 'The class, class group or registered entity (course, teacher, unit) id' }),
    code: Type.String({ description: "The caller's own code of it" }),
    name: Type.String(),
    enrolled: Count('Persons enrolled (not dropped) in the classes of the group, invited or not.'),
    ...stageFields,
  },
  { additionalProperties: false },
);

export const ResponseRates = Type.Object(
  {
    formId: Type.String(),
    at: Type.String({ format: 'date-time', description: 'The moment the figures were read.' }),
    overall: Type.Object(stageFields, { additionalProperties: false }),
    groups: Type.Object(
      {
        class: Type.Array(Group),
        classGroup: Type.Array(Group),
        course: Type.Array(Group),
        teacher: Type.Array(Group),
        orgUnit: Type.Array(Group, { description: 'One group per unit, holding the classes of its whole subtree.' }),
      },
      {
        additionalProperties: false,
        description:
          'Per roster grouping, in name order, the groups holding at least one invited person. A person counts once per group ' +
          'however many of its classes they are in.',
      },
    ),
  },
  { $id: 'ResponseRates', additionalProperties: false },
);

export const ratesSchemas: TSchema[] = [ResponseRates];
