/**
 * The system-wide banner's switch (spec 1 §4.3): the shell's banner (app/shell/BannerSlot) and
 * System Preferences (features/admin) read a preference's bannerStatus the same way.
 */

/** On is 'BANNER_ON', or 'ON' as one reading of spec 1 §3 has it. */
export function isBannerOn(status: string | null | undefined): boolean {
  const value = (status ?? '').trim().toUpperCase();
  return value === 'BANNER_ON' || value === 'ON';
}
