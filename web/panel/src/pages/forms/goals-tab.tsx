/** The form's alert rules (goals): armed or fired, add one, reset a fired one (it re-arms). */
import { Badge, Button, Group, NumberInput, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, unwrap } from '../../api/errors';
import { EmptyState } from '../../ui/empty-state';
import { fieldText, problemText } from '../../ui/problem-text';
import { formatWhen } from '../integrations/format';
import { Loading, LoadError } from '../../ui/area-state';
import { goalsQuery } from './forms-api';
import { NS } from './strings';

export function GoalsTab({ formId }: { formId: string }) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const goals = useQuery(goalsQuery(formId));
  const [goal, setGoal] = useState<number | ''>('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: goalsQuery(formId).queryKey });
  const add = useMutation({
    mutationFn: async () => unwrap(api.POST('/forms/{id}/goals', { params: { path: { id: formId } }, body: { goal: Number(goal) } })),
    onSuccess: async () => (setGoal(''), await refresh()),
  });
  const reset = useMutation({ mutationFn: async (id: string) => unwrap(api.POST('/goals/{id}/reset', { params: { path: { id } } })), onSuccess: refresh });
  const addError = add.error instanceof ApiProblem && add.error.fields[0] ? fieldText(tc, add.error.fields[0]) : add.error ? problemText(tc, add.error) : undefined;
  return (
    <Stack maw={720}>
      <Text>{t('goals.intro')}</Text>
      <form onSubmit={(event) => (event.preventDefault(), add.mutate())}>
        <Group align="flex-start">
          <NumberInput label={t('goals.goal')} min={1} max={2_147_483_647} allowDecimal={false} value={goal} onChange={(v) => setGoal(typeof v === 'number' ? v : '')} error={addError} w={200} />
          <Button type="submit" mt={25} loading={add.isPending} disabled={goal === ''}>
            {t('goals.add')}
          </Button>
        </Group>
      </form>
      {goals.isPending && <Loading />}
      {goals.isError && <LoadError error={goals.error} retry={() => void goals.refetch()} />}
      {goals.isSuccess && goals.data.length === 0 && <EmptyState title={t('goals.emptyTitle')} body={t('goals.emptyBody')} />}
      {goals.isSuccess &&
        goals.data.map((rule) => (
          <Paper key={rule.id} withBorder p="sm" data-rule-id={rule.id}>
            <Group justify="space-between" wrap="wrap">
              <Group gap="xs">
                <Text fw={500}>{rule.goal}</Text>
                <Badge variant="light" color={rule.armed ? 'green' : 'orange'} c="dark.9" tt="none">
                  {rule.armed ? t('goals.armed') : t('goals.fired', { count: rule.reachedCount ?? 0, when: rule.reachedAt ? formatWhen(rule.reachedAt) : '' })}
                </Badge>
              </Group>
              {!rule.armed && (
                <Button size="xs" variant="default" loading={reset.isPending} onClick={() => reset.mutate(rule.id)} aria-label={t('goals.resetFor', { goal: rule.goal })}>
                  {t('goals.reset')}
                </Button>
              )}
            </Group>
          </Paper>
        ))}
    </Stack>
  );
}
