/**
 * A pt-BR form whose second section pipes (issue 29): its name names the invite's course, its
 * description the respondent's name, its question the first section's choice, yes/no and number.
 */
export function pipedForm(slug: string, extra: Record<string, unknown> = {}) {
  return {
    slug,
    name: 'Avaliação',
    settings: { isPublic: true, language: 'pt-BR' },
    dims: [{ key: 'course', kind: 'course', source: 'invite' }],
    sections: [
      {
        key: 'first',
        name: 'Primeiro',
        questions: [
          { key: 'campus', name: 'Campus', type: 'RADIO', mandatory: true, options: [{ key: 'north', name: 'Norte & <Sul>' }, { key: 'online', name: 'Online' }] },
          { key: 'attended', name: 'Frequentou?', type: 'BOOLEAN', mandatory: true },
          { key: 'hours', name: 'Horas', type: 'NUMBER', mandatory: true },
        ],
      },
      {
        key: 'second',
        name: 'Sobre {{dims.course}}',
        description: 'Olá, {{ respondent.name }}!',
        questions: [{ key: 'why', name: 'Por que {{answer.campus}}? Frequentou: {{answer.attended}}, {{answer.hours}} horas.', type: 'TEXT' }],
      },
    ],
    ...extra,
  };
}
