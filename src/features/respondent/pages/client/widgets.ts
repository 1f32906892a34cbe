/// <reference lib="dom" />
/**
 * Enhancements of the page's own controls (each works without script): date-times read and shown
 * in the browser's time zone, and ranking rows moved with up and down buttons or dragged.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const localText = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

/**
 * A datetime-local field has no zone; without script the page says it is UTC. With script the
 * person types local time: the field shows the stored instant in the browser's zone, and a hidden
 * field under the question's name carries the instant in UTC (what the contract stores).
 */
export function zoneDateTimes(form: HTMLFormElement, zoneNote: string) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  form.querySelectorAll<HTMLInputElement>('input[data-zoned]').forEach((input) => {
    const instant = document.createElement('input');
    instant.type = 'hidden';
    instant.name = input.name;
    input.removeAttribute('name');
    input.after(instant);
    if (input.value) input.value = localText(new Date(`${input.value}Z`));
    const sync = () => {
      const local = input.value ? new Date(input.value) : null;
      instant.value = local && !Number.isNaN(local.getTime()) ? local.toISOString() : input.value;
    };
    sync();
    // before the form's own listeners read the fields (autosave, conditions)
    input.addEventListener('input', sync);
    input.addEventListener('change', sync);
    const note = document.getElementById(`n-${input.closest('[data-q]')?.getAttribute('data-q')}`);
    if (note) note.textContent = zoneNote.replace('{zone}', zone);
  });
}

/** The rows' order is the ranking: written into the position selects, announced as their change. */
function writeOrder(list: HTMLElement) {
  list.querySelectorAll<HTMLSelectElement>('select').forEach((select, index) => {
    select.value = String(index + 1);
  });
  list.querySelector('select')?.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * A row dragged by its grip, with a mouse, a pen or a finger (pointer events; the grip alone
 * stops the page from scrolling under a finger): it moves among the others as the pointer
 * passes their middles, and the order is written when it is let go. The grip is for pointers
 * only; the up and down buttons remain the keyboard's (and a screen reader's) way.
 */
function draggableRows(list: HTMLElement) {
  list.querySelectorAll<HTMLElement>('.grip').forEach((grip) => {
    grip.hidden = false;
  });
  list.addEventListener('pointerdown', (event) => {
    const grip = (event.target as HTMLElement).closest<HTMLElement>('.grip');
    const row = grip?.closest<HTMLElement>('.rank');
    if (!grip || !row || !event.isPrimary) return;
    event.preventDefault();
    row.classList.add('dragging');
    // followed on the document, not by capturing the pointer: moving the row in the DOM would end a capture
    const move = (e: PointerEvent) => {
      if (e.pointerId !== event.pointerId) return;
      const others = Array.from(list.querySelectorAll<HTMLElement>('.rank')).filter((other) => other !== row);
      const before = others.find((other) => {
        const box = other.getBoundingClientRect();
        return e.clientY < box.top + box.height / 2;
      });
      if (before) {
        if (row.nextElementSibling !== before) list.insertBefore(row, before);
      } else if (list.lastElementChild !== row) list.append(row);
    };
    const end = (e: PointerEvent) => {
      if (e.pointerId !== event.pointerId) return;
      document.removeEventListener('pointermove', move);
      document.removeEventListener('pointerup', end);
      document.removeEventListener('pointercancel', end);
      row.classList.remove('dragging');
      writeOrder(list);
    };
    document.addEventListener('pointermove', move);
    document.addEventListener('pointerup', end);
    document.addEventListener('pointercancel', end);
  });
}

/** Up and down buttons beside each ranked option, and a grip to drag it (the rows' order is the ranking). */
export function movableRankings(form: HTMLFormElement) {
  form.querySelectorAll<HTMLElement>('.ranks').forEach((list) => {
    list.querySelectorAll<HTMLElement>('.moves').forEach((moves) => {
      moves.hidden = false;
    });
    draggableRows(list);
    list.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-move]');
      const row = button?.closest<HTMLElement>('.rank');
      if (!button || !row) return;
      const up = button.dataset.move === '-1';
      const neighbour = (up ? row.previousElementSibling : row.nextElementSibling) as HTMLElement | null;
      if (neighbour) list.insertBefore(row, up ? neighbour : neighbour.nextElementSibling);
      writeOrder(list);
      button.focus();
    });
  });
}
