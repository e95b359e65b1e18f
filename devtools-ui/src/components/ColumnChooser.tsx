// The column chooser of a list: a disclosure button (keyboard: Tab to it,
// Enter/Space opens, Tab through the checkboxes, Esc closes and returns focus)
// with one checkbox per column. Required columns are shown checked and fixed.
import { useRef } from 'preact/hooks';
import type { PanelStore } from '../store';
import { COLUMNS, type ListName } from './columns';

export function ColumnChooser({ store, list }: { store: PanelStore; list: ListName }) {
  const hidden = store.ui.hiddenColumns.value[list];
  const details = useRef<HTMLDetailsElement>(null);
  const shown = COLUMNS[list].length - hidden.length;
  return (
    <details
      class="mr-columns"
      ref={details}
      data-testid={`${list}-columns`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && details.current?.open) {
          // Closes the menu only (not the selection or the detail behind it).
          e.stopPropagation();
          details.current.open = false;
          details.current.querySelector('summary')?.focus();
        }
      }}
    >
      <summary class="mr-btn" data-testid={`${list}-columns-toggle`} title="Choose the columns shown (kept across reloads)" aria-label={`Columns: ${shown} of ${COLUMNS[list].length} shown`}>
        columns
      </summary>
      <fieldset class="mr-columns-menu" aria-label="Columns shown">
        {COLUMNS[list].map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              data-testid="column-option"
              data-column={c.id}
              checked={!hidden.includes(c.id)}
              disabled={c.required === true}
              title={c.required ? 'Always shown' : undefined}
              onChange={() => store.emit({ type: 'columns/toggle', list, id: c.id })}
            />
            {c.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
