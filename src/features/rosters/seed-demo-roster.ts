import type { DemoSeeder } from '../../demo/index.js';
import { importForm } from '../forms/index.js';
import { importRoster } from './import-roster.js';

/** Six classes of the demo's courses, units and teachers (seed-forms.ts registers them). */
const CLASSES = [
  { code: 'ALG-1A', name: 'Algebra I, group A', courseCode: 'MATH101', orgUnitCode: 'NORTH-MATH', teacherCodes: ['T-NOETHER'] },
  { code: 'CALC-2A', name: 'Calculus, group A', courseCode: 'MATH201', orgUnitCode: 'NORTH-MATH', teacherCodes: ['T-LOVELACE'] },
  { code: 'PHYS-1A', name: 'Physics I, group A', courseCode: 'PHYS101', orgUnitCode: 'NORTH-SCI', teacherCodes: ['T-FEYNMAN', 'T-CURIE'] },
  { code: 'HIST-1A', name: 'World history, group A', courseCode: 'HIST101', orgUnitCode: 'SOUTH-HUM', teacherCodes: ['T-ACHEBE'] },
  { code: 'ART-1A', name: 'Drawing and painting, group A', courseCode: 'ART101', orgUnitCode: 'SOUTH-ART', teacherCodes: ['T-KAHLO'] },
  { code: 'CS-1A', name: 'Introduction to programming, group A', courseCode: 'CS101', orgUnitCode: 'ONLINE-CS', teacherCodes: ['T-HOPPER'] },
];
const STUDENTS = 300;
const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Felipe', 'Gabi', 'Heitor', 'Iara', 'João', 'Karen', 'Luís'];
const LAST = ['Silva', 'Souza', 'Oliveira', 'Santos', 'Lima', 'Costa', 'Pereira', 'Almeida', 'Ribeiro', 'Gomes'];

/** A class-linked form: its course and unit dims come from the class of the enrollment. */
const CLASS_FEEDBACK_FORM = {
  slug: 'class-feedback',
  name: 'Class feedback',
  description: 'Sent to the students enrolled in a class; course and campus come from the class.',
  dims: [
    { key: 'course', kind: 'course', source: 'class' },
    { key: 'campus', kind: 'unit', source: 'class' },
  ],
  sections: [
    {
      key: 'main',
      name: 'Your class',
      questions: [
        { key: 'nps', name: 'How likely are you to recommend this class to a friend?', type: 'NPS', mandatory: true },
        { key: 'comment', name: 'What should change?', type: 'TEXT' },
      ],
    },
  ],
};

/**
 * A year's roster: 300 students, each in two of six classes (one dropped along the way, a few
 * completed), and the class-linked form that surveys them.
 */
export const seedDemoRoster: DemoSeeder = async (ctx, company) => {
  const people = Array.from({ length: STUDENTS }, (_, i) => ({
    externalId: `STU-${String(i + 1).padStart(4, '0')}`,
    name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`,
    email: `student${i + 1}@demo-school.test`,
  }));
  const enrollments = people.flatMap((person, i) =>
    [i % CLASSES.length, (i + 2) % CLASSES.length].map((c, k) => ({
      externalId: person.externalId,
      classCode: CLASSES[c].code,
      status: i % 47 === 0 && k === 1 ? 'dropped' : i % 13 === 0 ? 'completed' : 'enrolled',
    })),
  );
  const { result } = await importRoster(ctx.db, ctx, {
    companyId: company.id,
    mode: 'upsert',
    classGroups: [{ code: '2026', name: 'School year 2026', startsOn: '2026-02-02', endsOn: '2026-12-11' }],
    classes: CLASSES.map((c) => ({ ...c, classGroupCode: '2026' })),
    people,
    enrollments,
  });
  // The demo data is ours: a row it gets wrong is a bug to see, not to skip.
  if (result.errors.length > 0) throw new Error(`demo roster: ${result.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
  await importForm(ctx.db, ctx, { companyId: company.id, rawJson: CLASS_FEEDBACK_FORM });
};
