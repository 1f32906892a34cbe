/**
 * A form whose first section shuffles its questions and options (randomisation, issue 29):
 * five questions, a RADIO with an anchored "Other", a CHECKBOX with an anchored "None of the
 * above", a RANKING; with this many items two seeds share one order with a negligible chance.
 * A second, plain section follows.
 */
const options = (...keys: string[]) => keys.map((key) => ({ key, name: `Option ${key}` }));

export function shuffledForm(slug: string, extra: Record<string, unknown> = {}) {
  return {
    slug,
    name: 'Shuffled',
    settings: { isPublic: true, language: 'en' },
    sections: [
      {
        key: 'mixed',
        name: 'Mixed',
        shuffleQuestions: true,
        shuffleOptions: true,
        questions: [
          { key: 'pick', name: 'Pick one', type: 'RADIO', mandatory: true, options: [...options('a', 'b', 'c', 'd', 'e'), { key: 'other', name: 'Other', anchored: true }] },
          { key: 'many', name: 'Pick some', type: 'CHECKBOX', options: [...options('f', 'g', 'h', 'i'), { key: 'none', name: 'None of the above', anchored: true }] },
          { key: 'rank', name: 'Rank them', type: 'RANKING', options: options('j', 'k', 'l', 'm') },
          { key: 'word', name: 'One word', type: 'TEXT' },
          { key: 'yes', name: 'Yes or no', type: 'BOOLEAN' },
        ],
      },
      { key: 'plain', name: 'Plain', questions: [{ key: 'more', name: 'Anything else', type: 'RADIO', options: options('x', 'y', 'z') }] },
    ],
    ...extra,
  };
}
