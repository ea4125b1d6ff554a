import Alert from '@mui/material/Alert';
import { create } from 'zustand';

/**
 * The system-wide banner (spec 1 §4.3). The preferences feature sets the
 * message when bannerStatus is on; with no message nothing is rendered.
 */
export const useBannerStore = create<{ message: string | null }>(() => ({ message: null }));

export function setBannerMessage(message: string | null): void {
  useBannerStore.setState({ message: message?.trim() ? message : null });
}

export function BannerSlot() {
  const message = useBannerStore((s) => s.message);
  if (!message) return null;
  return (
    <Alert severity="info" variant="filled" square role="status" sx={{ borderRadius: 0 }}>
      {message}
    </Alert>
  );
}
