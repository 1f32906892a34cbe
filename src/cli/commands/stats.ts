import { InvalidArgumentError, type Command } from 'commander';
import type { StatisticsFigures } from '../../features/statistics/shape-figures.js';
import type { GroupBy } from '../../features/statistics/statistics-request.js';
import { companyIdForSlug, formOfCompany, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';
import { dayArgument } from '../input.js';

const BAR_WIDTH = 24;

function parseDim(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const match = /^([a-z][a-zA-Z0-9_]{0,39})=(.{1,200})$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be key=value');
  return { ...previous, [match[1]]: match[2] };
}

function parseGroupBy(value: string): GroupBy {
  if (value === 'orgUnit') return { kind: 'org' };
  const match = /^dim\.([a-z][a-zA-Z0-9_]{0,39})$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be dim.<key> or orgUnit');
  return { kind: 'dim', key: match[1] };
}

/** The statistics of the cut, or its report per group with --group-by; the API's shapes. */
export async function statsCommand(rt: CliRuntime, { opts }: CommandInput) {
  const [{ getReport }, { getStatistics }] = await Promise.all([
    import('../../features/statistics/get-report.js'),
    import('../../features/statistics/get-statistics.js'),
  ]);
  const companyId = await companyIdForSlug(rt, opts.company);
  const form = await formOfCompany(rt, { companyId, companySlug: opts.company, idOrSlug: opts.form });
  const query = { companyId, formId: form.id, from: opts.from, to: opts.to, dims: opts.dim ?? {} };
  const deps = { scanCeiling: rt.ctx.config.statisticsScanCeiling };
  if (opts.groupBy) return { form: form.slug, statistics: null, report: await getReport(rt.ctx.db, deps, { ...query, groupBy: opts.groupBy }) };
  return { form: form.slug, statistics: await getStatistics(rt.ctx.db, deps, query), report: null };
}

const bar = (share: number) => {
  const filled = Math.round(Math.max(0, Math.min(1, share)) * BAR_WIDTH);
  return `${'█'.repeat(filled)}${'·'.repeat(BAR_WIDTH - filled)}`;
};
const fixed = (value: number | null) => (value === null ? '-' : Number.isInteger(value) ? String(value) : value.toFixed(2));

/** Labelled bars: label, bar scaled to the share, percentage and count. */
function bars(rows: { label: string; count: number; share: number }[]): string[] {
  const width = Math.max(...rows.map((row) => row.label.length));
  return rows.map((row) => `    ${row.label.padEnd(width)}  ${bar(row.share)} ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.count}`);
}

type QuestionFigures = StatisticsFigures['questions'][number] & Record<string, any>;

function renderQuestion(q: QuestionFigures): string[] {
  const lines = [`  ${q.name} [${q.key}, ${q.type}] answered ${q.answered}`];
  if (q.options && q.type !== 'RANKING') lines.push(...bars(q.options.map((o: any) => ({ label: o.name, count: o.count, share: o.share }))));
  if (q.type === 'RANKING') lines.push(...q.options.map((o: any) => `    ${o.name}: mean rank ${fixed(o.meanRank)}`));
  if (q.rows) {
    for (const row of q.rows) lines.push(`    ${row.name}: ${row.columns.map((c: any) => `${c.name} ${c.count}`).join(', ')}`);
  }
  if ('count' in q && q.histogram) {
    lines.push(`    mean ${fixed(q.mean)}  median ${fixed(q.median)}  min ${fixed(q.min)}  max ${fixed(q.max)}`);
    const total = q.count || 1;
    lines.push(...bars(q.histogram.map((b: any) => ({ label: b.from === b.to ? fixed(b.from) : `${fixed(b.from)}..${fixed(b.to)}`, count: b.count, share: b.count / total }))));
  }
  if (q.nps) lines.push(`    NPS ${fixed(q.nps.score)} (promoters ${q.nps.promoters}, passives ${q.nps.passives}, detractors ${q.nps.detractors})`);
  return lines;
}

function renderFigures(s: StatisticsFigures): string[] {
  const period = s.firstAt ? `${s.firstAt} .. ${s.lastAt}` : 'no responses';
  return [`${s.responseCount} responses (${s.completedCount} completed), ${period}`, ...s.questions.flatMap((q) => renderQuestion(q as QuestionFigures))];
}

export function describeStats(result: Awaited<ReturnType<typeof statsCommand>>): string {
  if (result.statistics) {
    const s = result.statistics;
    const notes = [s.truncated ? `truncated: the newest ${s.scanned} responses` : '', s.from || s.to ? `period ${s.from ?? '…'} to ${s.to ?? '…'}` : ''];
    return [`form ${result.form}${notes.filter(Boolean).map((n) => `; ${n}`).join('')}`, ...renderFigures(s)].join('\n');
  }
  const r = result.report!;
  const lines = [`form ${result.form} by ${r.groupBy}: ${r.groups.length} group(s)${r.truncated ? `; truncated: the newest ${r.scanned} responses` : ''}`];
  for (const group of r.groups) {
    lines.push('', `== ${group.name ? `${group.name} (${group.key})` : group.key}`);
    lines.push(...('statistics' in group && group.statistics ? renderFigures(group.statistics) : ['suppressed (under the anonymity floor)']));
  }
  return lines.join('\n');
}

export function registerStatsCommands(program: Command): void {
  program
    .command('stats')
    .description("print a form's statistics (bars for option shares), or a report per group with --group-by")
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <idOrSlug>', 'id or slug of the form')
    .option('--from <day>', 'first UTC day (YYYY-MM-DD, inclusive)', dayArgument)
    .option('--to <day>', 'last UTC day (YYYY-MM-DD, inclusive)', dayArgument)
    .option('--dim <key=value>', 'dim filter, repeatable (canonical value)', parseDim)
    .option('--group-by <dim.key|orgUnit>', 'one group per dim value or org unit', parseGroupBy)
    .action(runCommand(statsCommand, describeStats));
}
