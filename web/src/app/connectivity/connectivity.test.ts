import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts, useToastStore } from '../../core/toastService';
import { CONNECTION_UNSTABLE, watchConnectivity } from './connectivity';

afterEach(clearToasts);

describe('connectivity', () => {
  it("shows a persistent danger toast 'Connection unstable' while offline", () => {
    const stop = watchConnectivity();
    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('offline'));
    const shown = useToastStore.getState().toasts;
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ type: 'DANGER', message: CONNECTION_UNSTABLE, autoDismiss: false });
    window.dispatchEvent(new Event('online'));
    expect(useToastStore.getState().toasts).toHaveLength(0);
    stop();
  });
});
