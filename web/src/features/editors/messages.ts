/** The editors' user-facing texts (spec 2 §2 "Asset manager", "JSON editor", §5, §8). */
export const EDITOR_MESSAGES = {
  editingTitle: (path: string) => `Editing: ${path}`,
  saved: 'Changes saved to your workspace.',
  saveFailed: 'Failed to save changes',
  pleaseWait: 'Please wait',
  wrongJson: 'Wrong JSON Format',
  noSchema: 'No schema found.',
  badSchema: 'The schema file is not valid JSON.',
  loadFailed: 'Could not load asset',
  localChangesNote:
    "Saved changes appear in your local changes (the header's Local changes menu), not on the Save button.",
  required: 'This field is required',
  pattern: 'This value should match required pattern',
  invalidUrl: 'Enter a valid URL (https://…, /path or #anchor).',
  formErrors:
    'Please note that there are validation errors on the form. Make sure all required fields below are filled before attempting to save.',
  conflictTitle: 'The file changed',
  conflictText:
    'This file was changed in your workspace since you opened it (by a reload, a revert, a branch switch or another save). Nothing was saved.',
  conflictHint:
    '"Reload and reapply" loads the current file and keeps your edit on top of it, for you to check and save. "Reload and discard" loads it without your edit.',
  reloadAndReapply: 'Reload and reapply my edit',
  reloadAndDiscard: 'Reload and discard my edit',
  discardTitle: 'Discard your changes?',
  discardText: 'Your unsaved changes will be lost.',
  choose: 'Choose…',
  /** Opens the link manager of a link field (spec 2 §2). */
  editLink: 'Edit link',
  /** The title of an array row without one (spec 2 §9). */
  newEntry: 'New Entry',
  moreRows: (n: number) => `Building ${n} more rows…`,
} as const;
