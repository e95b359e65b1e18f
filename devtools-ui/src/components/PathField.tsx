// The redirect target field of both replay dialogs: a combobox (ARIA 1.2
// pattern) over the live user paths the mailboxes stream knows. Arrow keys
// move through the suggestions, Enter takes the highlighted one (else submits
// the form), Esc closes the list before it would close the dialog. The field
// judges nothing: whether the path is malformed is the core's verdict, from
// the dry run (store/index.ts, replayPreview; store/bulk.ts).
import { useState } from 'preact/hooks';
import type { Ref } from 'preact';

export interface PathFieldProps {
  id: string;
  value: string;
  suggestions: readonly string[];
  /** What is wrong with the text (data-problem), or null. */
  problem: string | null;
  describedBy: string;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  testId: string;
  onInput: (text: string) => void;
  /** Enter with no suggestion highlighted. */
  onSubmit: () => void;
}

export function PathField(props: PathFieldProps) {
  const { id, value, suggestions, problem, testId } = props;
  const [active, setActive] = useState(-1);
  const [closed, setClosed] = useState(false);
  const open = !closed && suggestions.length > 0 && !props.disabled;
  const listId = `${id}-paths`;
  const optionId = (i: number) => `${id}-path-${i}`;
  const pick = (path: string) => {
    setActive(-1);
    setClosed(true);
    props.onInput(path);
  };
  return (
    <div class="mr-combo">
      <input
        ref={props.inputRef}
        id={id}
        class="mr-filter"
        data-testid={testId}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        aria-invalid={problem !== null}
        aria-describedby={props.describedBy}
        data-problem={problem ?? ''}
        value={value}
        spellcheck={false}
        autocomplete="off"
        disabled={props.disabled}
        onInput={(e) => {
          setActive(-1);
          setClosed(false);
          props.onInput((e.currentTarget as HTMLInputElement).value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            if (suggestions.length === 0) return;
            e.preventDefault();
            e.stopPropagation();
            setClosed(false);
            const n = suggestions.length;
            setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : a <= 0 ? n - 1 : a - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            if (open && active >= 0 && active < suggestions.length) pick(suggestions[active]);
            else props.onSubmit();
          } else if (e.key === 'Escape' && open) {
            // The list closes first; the next Esc closes the dialog.
            e.preventDefault();
            e.stopPropagation();
            setClosed(true);
            setActive(-1);
          }
        }}
      />
      {open && (
        <ul class="mr-combo-list" id={listId} role="listbox" aria-label="Live actor paths" data-testid={`${testId}-suggestions`}>
          {suggestions.map((p, i) => (
            <li
              key={p}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'mr-on' : ''}
              data-testid="path-suggestion"
              // mousedown, not click: the input keeps focus.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(p);
              }}
            >
              {p}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
