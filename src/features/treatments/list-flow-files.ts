import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { exportConditionOnForm, findForm, findFormByIdOrSlug } from '../forms/index.js';
import { ApiError } from '../../lib/errors.js';
import type { FlowDefinition, FlowFile } from './flow-definition.js';
import { listFlows } from './flows.js';

export interface FlowFileItem {
  key: string;
  name: string;
  createdAt: Date;
  /** the flow as its file says it (questions and options by key): what `quorum form flow add` reads */
  file: FlowFile;
}

/** A form's flows as files, for the panel to show and edit (conditions back in keys, a check's form by slug). */
export async function listFlowFiles(db: DbOrTx, deps: NoDeps, input: { companyId: string; formId: string }): Promise<FlowFileItem[]> {
  const { companyId, formId } = input;
  const form = await findForm(db, deps, { companyId, id: formId });
  if (!form) throw new ApiError('NOT_FOUND', 'Form not found.');
  const flows = await listFlows(db, deps, { companyId, formIdOrSlug: form.id });
  return Promise.all(
    flows.map(async (flow) => {
      const definition = flow.definition as FlowDefinition;
      const file: FlowFile = { key: flow.key, name: flow.name, when: exportConditionOnForm(definition.when, form.content), steps: definition.steps };
      const check = definition.effectivenessCheck;
      if (check?.kind === 'date') file.effectivenessCheck = { afterWorkingDays: check.afterWorkingDays, failsWhen: exportConditionOnForm(check.failsWhen, form.content) };
      if (check?.kind === 'response') {
        const other = await findFormByIdOrSlug(db, deps, { companyId, idOrSlug: check.formId });
        if (other) file.effectivenessCheck = { form: other.slug, failsWhen: exportConditionOnForm(check.failsWhen, other.content) };
      }
      return { key: flow.key, name: flow.name, createdAt: flow.createdAt, file };
    }),
  );
}
