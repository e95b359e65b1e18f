// Each test starts from a clean page: no preferences left by the last one.
import { beforeEach } from 'vitest';

beforeEach(() => {
  globalThis.localStorage?.clear();
});
