import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Two-core CI machines run the files in parallel: give async queries room.
// make test runs Vitest beside the Go and browser tests (scripts/test.sh): a lazily loaded
// editor may take seconds to appear on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
