// The toolbar a list view opens with: its filter box, then the view's own
// controls, and the filter's mistakes named just under the box. The mistakes
// float over the list rather than push it down, so a half-typed token does not
// resize (and re-render) the list on every keystroke.
import type { ComponentChildren } from 'preact';
import { FilterInput, type FilterInputProps } from './FilterInput';

export interface FilterBarProps extends FilterInputProps {
  /** Mistakes in the filter text, shown under the bar (test id `${testId}-errors`). */
  errors?: readonly string[];
  children?: ComponentChildren;
}

export function FilterBar({ errors = [], children, ...input }: FilterBarProps) {
  return (
    <div class="mr-toolbar">
      <FilterInput {...input} />
      {children}
      {errors.length > 0 && (
        <div class="mr-filter-errors" role="status" data-testid={`${input.testId}-errors`}>
          {errors.join('; ')}
        </div>
      )}
    </div>
  );
}
