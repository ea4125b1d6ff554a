import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearToasts, scaleToastTimeOuts } from '../core/toastService';
import { disposeRouters } from './render';

// Two-core CI machines run the files in parallel: give async queries room.
// make test runs Vitest beside the Go and browser tests (scripts/test.sh): a lazily loaded
// editor or screen may take seconds to appear on a busy machine: a route's lazy module is
// loaded inside a transition, so the old screen stays until it is (CI saw 10 s pass). The wait
// costs nothing when the query succeeds; Vitest's testTimeout (60 s) still bounds a test.
configure({ asyncUtilTimeout: 30_000 });
// For the same reason a toast stays 100 times longer than in the app (3 s: 5 min), so a test
// that reads it after the screen settled still finds it; each test ends with none.
scaleToastTimeOuts(100);

afterEach(() => {
  disposeRouters();
  cleanup();
  clearToasts();
  window.localStorage.clear();
});
