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
  /** A required number (spec 2 §5). */
  requiredNumber: 'The field is required.',
  /** oneOf data matching none of its schemas (spec 2 §5). */
  noMatchingSchema: 'Could not find a matching schema for the data',
  /** A field rjsf cannot render (spec 2 §5). */
  unsupportedSchemaType: 'Unsupported schema type',
  /** A field whose schema names a type JSON Schema does not have (spec 2 §5). */
  unknownType: (type: string) => `Unsupported type ${type} used in schema part`,
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
  /** A save refused with 409 that merged cleanly and was saved again (issue 21). */
  mergedAndSaved: 'Merged with changes made meanwhile and saved.',
  /** The merge dialog's Apply loaded the merged text (not saved). */
  mergedLoaded: 'Your edit was merged with the current file. Check it, then Save.',
  mergeConflictText:
    'This file was changed since you opened it, in the same places as your edit. Nothing was saved yet.',
  mergeConflictHint:
    'Everything else was merged: the other changes and yours are both kept. For each change below choose the version to keep, then Apply: the result is loaded into the editor for you to check and save.',
  mergeFailedTitle: 'Could not merge your edit',
  mergeFailedText: (reason: string) =>
    `Your edit could not be merged with the current file (${reason}). Nothing was saved. Cancel keeps your edit in the editor; "Reload and discard" loads the current file without it.`,
  keptChanging:
    'The file kept changing while your edit was being merged into it. Nothing was saved. Apply loads the last merge into the editor for you to check and save.',
  deletedMeanwhile:
    'This file was deleted since you opened it. Nothing was saved. Cancel keeps your edit in the editor; "Reload and discard" shows the workspace without it.',
  conflictsLabel: 'Changes that overlap',
  keepMine: 'Keep mine',
  keepTheirs: 'Keep theirs',
  apply: 'Apply',
  theirsHeading: 'Theirs (the file now)',
  mineHeading: 'Mine (your edit)',
  absent: '(not present)',
  deleted: '(deleted)',
  emptyText: '(empty)',
  /** The workspace changed under an editor with an unsaved edit (a revert, reset, reload or branch switch). */
  workspaceChanged:
    'This file was changed in your workspace (by a revert, a reset, a reload or a branch switch) while you were editing it. Your unsaved edit is still here, but it is based on the old file: saving it will be refused. Reload to show the file as it is now (your edit is lost).',
  reload: 'Reload',
  discardTitle: 'Discard your changes?',
  discardText: 'Your unsaved changes will be lost.',
  choose: 'Choose…',
  /** Opens the link manager of a link field (spec 2 §2). */
  editLink: 'Edit link',
  /** The title of an array row without one (spec 2 §9). */
  newEntry: 'New Entry',
  /** The JSON editor's sticky Save/Cancel bar. */
  formActions: 'Form actions',
  showFirstError: (n: number) => (n === 1 ? 'Go to the invalid field' : `Go to the first of ${n} invalid fields`),
  /** A plain row's heading when the list has no title: 'Entry 1'. */
  entry: 'Entry',
  moreRows: (n: number) => `Building ${n} more rows…`,
  /** Under an editable Ace editor: Tab indents there, so it says how to leave (issue 31). */
  leaveEditorHint: 'Tab indents. To leave the editor, press Escape, then Tab.',
} as const;
