// The part of @preact/signals' types that the panel's public types mention
// (the store's signals). The panel bundles its own copy of the library, so a
// host never installs it; the emitted .d.ts point here instead
// (scripts/build-devtools.sh), and a host reads `.value` or subscribes.
export interface ReadonlySignal<T = any> {
  readonly value: T;
  peek(): T;
  subscribe(fn: (value: T) => void): () => void;
}
export interface Signal<T = any> extends ReadonlySignal<T> {
  value: T;
}
