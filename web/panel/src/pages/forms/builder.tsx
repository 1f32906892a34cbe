/**
 * The builder: sections and their questions, reordered by drag and drop (dnd-kit, keyboard sensor
 * on: space lifts, arrows move) or by the explicit move up / move down buttons.
 */
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Badge, Button, Card, Checkbox, Group, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConditionEditor } from './condition-editor';
import { newQuestion, newSection, type Draft, type Question, type Section } from './definition';
import { useFieldErrors } from './field-errors';
import { QuestionEditor } from './question-editor';
import { NS } from './strings';

type Edit = (change: (draft: Draft) => Draft) => void;

function move<T>(list: T[], from: number, to: number): T[] {
  return to < 0 || to >= list.length ? list : arrayMove(list, from, to);
}

function QuestionCard({ question, index, count, path, earlier, hidden, onChange, onMove, onRemove }: {
  question: Question; index: number; count: number; path: string; earlier: Question[]; hidden: boolean;
  onChange: (q: Question) => void; onMove: (to: number) => void; onRemove: () => void;
}) {
  const { t } = useTranslation(NS);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: question.uid });
  const label = question.name || question.key;
  return (
    <Card ref={setNodeRef} withBorder padding="sm" style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.7 : 1 }} data-question-key={question.key} component="li">
      <Group justify="space-between" wrap="wrap" gap="xs" mb="xs">
        <Group gap="xs">
          <Button ref={setActivatorNodeRef} variant="default" size="xs" aria-label={t('builder.drag', { name: label })} {...attributes} {...listeners} style={{ cursor: 'grab' }}>
            ⠿
          </Button>
          <Title order={4} size="h5">
            {t('builder.question', { n: index + 1 })}
          </Title>
          {hidden && (
            <Badge variant="light" color="gray" c="dark.9">
              {t('builder.hiddenNow')}
            </Badge>
          )}
        </Group>
        <Group gap={4}>
          <Button size="xs" variant="default" disabled={index === 0} onClick={() => onMove(index - 1)} aria-label={`${t('builder.moveUp')}: ${label}`}>
            ↑
          </Button>
          <Button size="xs" variant="default" disabled={index === count - 1} onClick={() => onMove(index + 1)} aria-label={`${t('builder.moveDown')}: ${label}`}>
            ↓
          </Button>
          <Button size="xs" variant="default" c="red.9" onClick={onRemove} aria-label={`${t('builder.remove')}: ${label}`}>
            {t('builder.remove')}
          </Button>
        </Group>
      </Group>
      <QuestionEditor question={question} path={path} earlier={earlier} onChange={onChange} />
    </Card>
  );
}

function SectionCard({ draft, section, s, hidden, edit }: { draft: Draft; section: Section; s: number; hidden: Set<string>; edit: Edit }) {
  const { t } = useTranslation(NS);
  const errors = useFieldErrors();
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const path = `sections[${s}]`;
  const before = draft.sections.slice(0, s).flatMap((x) => x.questions);
  const setSection = (change: (section: Section) => Section) => edit((d) => ({ ...d, sections: d.sections.map((x, i) => (i === s ? change(x) : x)) }));
  // the value is read before the update is queued: React runs updaters after the event is gone
  const setFields = (patch: Partial<Section>) => setSection((x) => ({ ...x, ...patch }));
  const setQuestions = (change: (questions: Question[]) => Question[]) => setSection((x) => ({ ...x, questions: change(x.questions) }));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setQuestions((qs) => move(qs, qs.findIndex((q) => q.uid === active.id), qs.findIndex((q) => q.uid === over.id)));
  };
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={`section-${section.uid}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} size="h4" id={`section-${section.uid}`}>
            {t('builder.section', { n: s + 1 })}
            {section.name ? `: ${section.name}` : ''}
          </Title>
          <Group gap={4}>
            <Button size="xs" variant="default" disabled={s === 0} onClick={() => edit((d) => ({ ...d, sections: move(d.sections, s, s - 1) }))} aria-label={`${t('builder.moveUp')}: ${t('builder.section', { n: s + 1 })}`}>
              ↑
            </Button>
            <Button size="xs" variant="default" disabled={s === draft.sections.length - 1} onClick={() => edit((d) => ({ ...d, sections: move(d.sections, s, s + 1) }))} aria-label={`${t('builder.moveDown')}: ${t('builder.section', { n: s + 1 })}`}>
              ↓
            </Button>
            {draft.sections.length > 1 && (
              <Button size="xs" variant="default" c="red.9" onClick={() => edit((d) => ({ ...d, sections: d.sections.filter((_, i) => i !== s) }))}>
                {t('builder.removeSection')}
              </Button>
            )}
          </Group>
        </Group>
        <Group grow wrap="wrap" align="flex-start">
          <TextInput label={t('builder.sectionName')} required maxLength={500} value={section.name} onChange={(e) => setFields({ name: e.currentTarget.value })} error={errors.get(`${path}.name`)} miw={200} />
          <TextInput label={t('builder.key')} required maxLength={64} value={section.key} onChange={(e) => setFields({ key: e.currentTarget.value })} error={errors.get(`${path}.key`)} miw={140} />
        </Group>
        <Textarea label={t('builder.description')} autosize minRows={1} maxLength={5000} value={section.description ?? ''} onChange={(e) => setFields({ description: e.currentTarget.value || undefined })} />
        <ConditionEditor value={section.visibleIf} earlier={before} path={`${path}.visibleIf`} onChange={(visibleIf) => setSection((x) => ({ ...x, visibleIf }))} />
        <Group gap="lg">
          <Checkbox label={t('builder.shuffleQuestions')} checked={section.shuffleQuestions === true} onChange={(e) => setFields({ shuffleQuestions: e.currentTarget.checked || undefined })} error={errors.get(`${path}.shuffleQuestions`)} />
          <Checkbox label={t('builder.shuffleOptions')} checked={section.shuffleOptions === true} onChange={(e) => setFields({ shuffleOptions: e.currentTarget.checked || undefined })} />
        </Group>
        {section.questions.length === 0 && <Text c="dimmed">{t('builder.emptySection')}</Text>}
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={section.questions.map((q) => q.uid)} strategy={verticalListSortingStrategy}>
            <Stack component="ol" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {section.questions.map((question, q) => (
                <QuestionCard
                  key={question.uid}
                  question={question}
                  index={q}
                  count={section.questions.length}
                  path={`${path}.questions[${q}]`}
                  earlier={[...before, ...section.questions.slice(0, q)]}
                  hidden={hidden.has(question.key)}
                  onChange={(next) => setQuestions((qs) => qs.map((x, i) => (i === q ? next : x)))}
                  onMove={(to) => setQuestions((qs) => move(qs, q, to))}
                  onRemove={() => setQuestions((qs) => qs.filter((_, i) => i !== q))}
                />
              ))}
            </Stack>
          </SortableContext>
        </DndContext>
        <Button variant="light" onClick={() => setQuestions((qs) => [...qs, newQuestion(draft)])} style={{ alignSelf: 'flex-start' }}>
          {t('builder.addQuestion')}
        </Button>
      </Stack>
    </Card>
  );
}

/** `hidden`: keys of questions the tried answers hide (decided by the respondent pages' evaluator). */
export function Builder({ draft, edit, hidden }: { draft: Draft; edit: Edit; hidden: Set<string> }) {
  const { t } = useTranslation(NS);
  return (
    <Stack>
      {draft.sections.map((section, s) => (
        <SectionCard key={section.uid} draft={draft} section={section} s={s} hidden={hidden} edit={edit} />
      ))}
      <Button variant="default" onClick={() => edit((d) => ({ ...d, sections: [...d.sections, newSection(d)] }))} style={{ alignSelf: 'flex-start' }}>
        {t('builder.addSection')}
      </Button>
    </Stack>
  );
}
