/// <reference lib="dom" />
/**
 * The page script (progressive enhancement; the page works without it). Bundled by esbuild with
 * the same browser-safe rules the server applies: shows and hides questions as answers change,
 * checks a section when its Next is pressed, before it is posted (focus on the first error), sends a page once however often
 * its button is tapped, autosaves a personal link's draft (PUT /r/v1/invites/{token}/draft) a moment
 * after each change, says so when a page cannot be sent offline, and reports a personal link seen by
 * a person (the invite's open).
 */
import type { FieldError } from '../../../../lib/errors.js';
import type { Answers, ResolvedForm } from '../../../forms/definition/types.js';
import { dropHidden, validateAnswers, visibleQuestionIds } from '../../../forms/rules/index.js';
import { readSectionAnswers } from '../read-answers.js';
import { reportSeen } from './report-seen.js';
import { movableRankings, zoneDateTimes } from './widgets.js';

interface Messages {
  errors: Record<string, string>;
  saved: string;
  saveFailed: string;
  offline: string;
  zoneNote: string;
}

// the section's form, or the welcome screen's, says where a personal link reports the person
const seen = document.querySelector<HTMLFormElement>('form[data-seen]');
if (seen?.dataset.seen) reportSeen(seen.dataset.seen);
const form = document.getElementById('quorum-form') as HTMLFormElement | null;
if (form) enhance(form);

function enhance(form: HTMLFormElement) {
  const rules = JSON.parse(form.dataset.rules ?? '{}') as ResolvedForm;
  const messages = JSON.parse(form.dataset.messages ?? '{}') as Messages;
  zoneDateTimes(form, messages.zoneNote);
  movableRankings(form);
  const sectionIndex = Number(form.dataset.section);
  const section = rules.sections[sectionIndex];
  const shownField = form.elements.namedItem('_shown') as HTMLInputElement;
  const stateField = form.elements.namedItem('_answers') as HTMLInputElement | null;
  const status = document.getElementById('save-status');
  // personal link: earlier sections live in the draft; public link: in the page's hidden state
  let earlier: Answers = stateField ? (JSON.parse(stateField.value || '{}') as Answers) : {};
  const sectionIds = new Set(section.questions.map((q) => q.id));
  earlier = Object.fromEntries(Object.entries(earlier).filter(([id]) => !sectionIds.has(id)));
  const values = (name: string) => new FormData(form).getAll(name).map(String);

  const current = () => {
    const read = readSectionAnswers(section.questions, values);
    return { answers: { ...earlier, ...read.answers }, readErrors: read.errors };
  };

  function applyVisibility(answers: Answers) {
    const visible = visibleQuestionIds(rules, answers);
    const shown: string[] = [];
    for (const q of section.questions) {
      const box = document.getElementById(`q-${q.id}`);
      if (!box) continue;
      box.hidden = !visible.has(q.id);
      if (!box.hidden) shown.push(q.id);
    }
    shownField.value = shown.join(',');
    return visible;
  }

  function showErrors(errors: FieldError[]): HTMLElement | null {
    let first: HTMLElement | null = null;
    const byQuestion = new Map<string, string>();
    for (const e of errors) {
      const id = /^answers\.([^.[]+)/.exec(e.path)?.[1];
      if (id && !byQuestion.has(id)) byQuestion.set(id, messages.errors[e.code] ?? e.message);
    }
    for (const q of section.questions) {
      const message = byQuestion.get(q.id);
      const box = document.getElementById(`q-${q.id}`);
      const note = document.getElementById(`e-${q.id}`);
      const control = document.getElementById(`f-${q.id}`);
      if (!box || !note) continue;
      note.textContent = message ?? '';
      note.hidden = !message;
      const target = box.tagName === 'FIELDSET' ? box : control;
      if (target) {
        if (message) target.setAttribute('aria-invalid', 'true');
        else target.removeAttribute('aria-invalid');
        const ids = (target.getAttribute('aria-describedby') ?? '').split(' ').filter((x) => x && x !== `e-${q.id}`);
        if (message) ids.push(`e-${q.id}`);
        target.setAttribute('aria-describedby', ids.join(' '));
      }
      if (message && !first) first = control;
    }
    return first;
  }

  function sectionErrors(complete: boolean): FieldError[] {
    const { answers, readErrors } = current();
    const visible = visibleQuestionIds(rules, answers);
    const mine = (e: FieldError) => {
      const id = /^answers\.([^.[]+)/.exec(e.path)?.[1];
      return id !== undefined && sectionIds.has(id) && visible.has(id);
    };
    return [...readErrors, ...validateAnswers(rules, dropHidden(rules, answers), { partial: !complete })].filter(mine);
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  function autosave() {
    const url = form.dataset.draft;
    if (!url) return;
    clearTimeout(timer);
    if (status) status.textContent = '';
    timer = setTimeout(() => {
      const { answers } = current();
      const invalid = new Set(sectionErrors(false).map((e) => /^answers\.([^.[]+)/.exec(e.path)?.[1]));
      const fitting = Object.fromEntries(Object.entries(dropHidden(rules, answers)).filter(([id]) => !invalid.has(id)));
      fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: fitting, sectionIndex }), credentials: 'omit', referrerPolicy: 'no-referrer' })
        .then((res) => {
          if (status) status.textContent = res.ok ? messages.saved : messages.saveFailed;
        })
        .catch(() => {
          if (status) status.textContent = messages.saveFailed;
        });
    }, 600);
  }

  // the draft's earlier answers are not in this page: conditions on them are already applied by the server
  const onChange = (event: Event) => {
    applyVisibility(current().answers);
    if (event.type === 'change') showErrors(sectionErrors(false));
    autosave();
  };
  form.addEventListener('change', onChange);
  form.addEventListener('input', onChange);
  // A second tap while the page is being sent posts nothing more (the server also answers a repeat
  // with the first response); coming back to the page from the history allows sending again.
  let sending = false;
  window.addEventListener('pageshow', () => {
    sending = false;
  });
  // The section is checked when Next (or Send) is activated, a click or Enter in a field (which
  // clicks it), before the form is submitted: the builder's sandboxed preview blocks submission
  // itself (no allow-forms), and its "Try it" must still show the errors this page shows.
  form.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[type="submit"]');
    // going back and saving for later (a public link's resume link) check nothing, as on the server
    if (!button || button.value === 'back' || button.value === 'save' || sending) return;
    applyVisibility(current().answers);
    const first = showErrors(sectionErrors(true));
    if (first) {
      event.preventDefault();
      first.focus();
    }
  });
  form.addEventListener('submit', (event) => {
    if (sending) {
      event.preventDefault();
      return;
    }
    // offline, the browser would show its own error page and the person would lose the page
    if (!navigator.onLine) {
      event.preventDefault();
      if (status) status.textContent = messages.offline;
      return;
    }
    sending = true;
  });
  applyVisibility(current().answers);
}
