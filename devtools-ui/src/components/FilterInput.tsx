// A filter box that takes focus when the store asks (the `/` shortcut).
import { useEffect, useRef } from 'preact/hooks';
import type { PanelStore } from '../store';

export interface FilterInputProps {
  store: PanelStore;
  value: string;
  placeholder: string;
  testId: string;
  onInput: (text: string) => void;
}

export function FilterInput({ store, value, placeholder, testId, onInput }: FilterInputProps) {
  const ref = useRef<HTMLInputElement>(null);
  const focusTick = store.ui.focusFilter.value;
  // Only a request made after mounting focuses; switching views must not steal focus.
  const mountedTick = useRef(focusTick);
  useEffect(() => {
    if (focusTick !== mountedTick.current) ref.current?.focus();
  }, [focusTick]);
  return (
    <input
      ref={ref}
      class="mr-filter"
      type="search"
      spellcheck={false}
      value={value}
      placeholder={placeholder}
      data-testid={testId}
      onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
    />
  );
}
