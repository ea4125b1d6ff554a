/** Presence texts (issue 21 item 5): who else has a file open or is changing it. */
export const PRESENCE_MESSAGES = {
  editing: (name: string) => `${name} is editing this file`,
  viewing: (name: string) => `${name} is viewing this file`,
  uncommitted: (name: string) => `${name} has uncommitted changes to this file`,
  /** The bar's accessible name. */
  barLabel: 'Other people on this file',
  /** The File Explorer's and Page Manager's mark: its tooltip and accessible name. */
  changedBy: (what: 'file' | 'page', who: string) => `Other users are changing this ${what}: ${who}`,
  editingShort: 'editing',
  uncommittedShort: 'uncommitted changes',
} as const;
