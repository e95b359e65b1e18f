// The two lists' columns in one table each: id, header, track width at each
// container width, and whether the column chooser may hide it. The grid CSS
// is generated from these, with each cell placed by its column number, so a
// column hidden by the chooser (its track 0, its cells not rendered) or by a
// narrow container never shifts another column's cells into the wrong track.

export interface ColumnDef<Id extends string = string> {
  id: Id;
  label: string;
  /** Track width when wide, at most 760 px and at most 340 px (null: not shown at that width). */
  wide: string;
  narrow?: string | null;
  tiny?: string | null;
  /** The chooser cannot hide it (the row would lose its name). */
  required?: boolean;
}

export const DEAD_LETTER_COLUMNS = [
  { id: 'id', label: 'Id', wide: '78px', narrow: null, tiny: null },
  { id: 'time', label: 'Time', wide: '100px', narrow: '100px', tiny: 'minmax(0,1fr)' },
  { id: 'type', label: 'Type', wide: 'minmax(0,1fr)', narrow: 'minmax(0,1fr)', tiny: null },
  { id: 'cause', label: 'Cause', wide: '132px', narrow: 'minmax(0,1fr)', tiny: null },
  { id: 'recipient', label: 'Recipient', wide: 'minmax(0,1.5fr)', narrow: 'minmax(0,1.4fr)', tiny: 'minmax(0,1.4fr)', required: true },
  { id: 'sender', label: 'Sender', wide: 'minmax(0,1fr)', narrow: null, tiny: null },
  { id: 'replays', label: 'Replays', wide: '74px', narrow: '66px', tiny: null },
  { id: 'state', label: 'State', wide: '160px', narrow: '96px', tiny: '76px' },
] as const satisfies readonly ColumnDef[];
export type DeadLetterColumn = (typeof DEAD_LETTER_COLUMNS)[number]['id'];

export const MAILBOX_COLUMNS = [
  { id: 'path', label: 'Path', wide: 'minmax(0,2fr)', required: true },
  { id: 'className', label: 'Class', wide: 'minmax(0,1fr)' },
  { id: 'mailboxKind', label: 'Kind', wide: '94px' },
  { id: 'overflow', label: 'Policy', wide: '112px' },
  { id: 'userDepth', label: 'Depth', wide: '150px' },
  { id: 'fill', label: 'Fill', wide: '52px' },
  { id: 'systemDepth', label: 'Sys', wide: '36px' },
  { id: 'stashSize', label: 'Stash', wide: '56px' },
  { id: 'dropped', label: 'Dropped', wide: '76px' },
  { id: 'suspended', label: 'State', wide: '76px' },
  { id: 'processedRate', label: 'Msg/s', wide: '56px' },
  { id: 'growth', label: 'Growth', wide: '66px' },
  { id: 'history', label: 'Depth (60)', wide: '96px' },
  { id: 'links', label: 'Dead letters', wide: '36px', required: true },
] as const satisfies readonly ColumnDef[];
export type MailboxColumn = (typeof MAILBOX_COLUMNS)[number]['id'];

export type ListName = 'deadLetters' | 'mailboxes';
export const COLUMNS: Record<ListName, readonly ColumnDef[]> = { deadLetters: DEAD_LETTER_COLUMNS, mailboxes: MAILBOX_COLUMNS };

/** The 1-based grid column of a column id (its cells' placement and aria-colindex). */
export function columnIndex(list: ListName, id: string): number {
  return COLUMNS[list].findIndex((c) => c.id === id) + 1;
}

/** The CSS custom properties that zero the hidden columns' tracks (set on the grid's container). */
export function hiddenTracks(list: ListName, hidden: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  COLUMNS[list].forEach((c, i) => {
    if (hidden.has(c.id)) out[`--mr-${list}-c${i + 1}`] = '0px';
  });
  return out;
}

function template(list: ListName, width: (c: ColumnDef) => string | null | undefined): string {
  return COLUMNS[list].map((c, i) => `var(--mr-${list}-c${i + 1},${width(c) ?? '0px'})`).join(' ');
}

function placement(list: ListName, cls: string): string {
  return COLUMNS[list].map((_, i) => `.${cls}>.mr-c${i + 1}{grid-column:${i + 1}}`).join('\n');
}

function hiddenAt(list: ListName, cls: string, width: (c: ColumnDef) => string | null | undefined): string {
  const sel = COLUMNS[list].flatMap((c, i) => (width(c) === null ? [`.${cls}>.mr-c${i + 1}`] : [])).join(',');
  return sel === '' ? '' : `${sel}{display:none}`;
}

/** The grid rules of both lists (part of the panel's stylesheet). */
export function columnCss(): string {
  const dl = 'mr-dl-grid';
  const mb = 'mr-mb-grid';
  return [
    `.${mb}{display:grid;grid-template-columns:${template('mailboxes', (c) => c.wide)};align-items:center}`,
    placement('mailboxes', mb),
    `.${dl}{display:grid;grid-template-columns:${template('deadLetters', (c) => c.wide)};align-items:center}`,
    placement('deadLetters', dl),
    // Beside an open detail (a 1280 px page) the wide tracks left the recipient ~70 px ("/user/c…"): the narrow ones start at 760.
    `@container (max-width: 760px){.${dl}{grid-template-columns:${template('deadLetters', (c) => (c as { narrow?: string | null }).narrow)}}`,
    `${hiddenAt('deadLetters', dl, (c) => (c as { narrow?: string | null }).narrow)}}`,
    `@container (max-width: 340px){.${dl}{grid-template-columns:${template('deadLetters', (c) => (c as { tiny?: string | null }).tiny)}}`,
    `${hiddenAt('deadLetters', dl, (c) => (c as { tiny?: string | null }).tiny)}}`,
  ].join('\n');
}
