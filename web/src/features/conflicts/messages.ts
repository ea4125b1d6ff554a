/** Every user-visible text of conflict resolution, discarded work and review (issue 21). */
import { plural } from '../../lib/format';

/** ' for 60 days': how long discarded work is kept, the server's number (nothing when unknown). */
const keptFor = (days: number | undefined) => (days ? ` for ${plural(days, 'day')}` : '');

export const CONFLICT_MESSAGES = {
  // Resolution screen
  title: 'Resolve conflicts',
  overline: 'Local changes',
  intro:
    'Your local commit conflicts with changes another user committed. Choose what to keep for every conflict, then commit the result.',
  loading: 'Loading the conflicts',
  loadFailed: 'Could not load the conflicts',
  opening: 'Opening the portal',
  nothing: 'There is nothing to resolve: your local changes merge with the branch.',
  backToDashboard: 'Back to the dashboard',
  resolve: 'Resolve and commit',
  resolutionBar: 'Resolution',
  ready: 'Every conflict has a choice.',
  resolveFailed: 'Could not commit the resolution',
  chooseAll: (left: number) => `Choose what to keep for ${plural(left, 'more conflict')}.`,
  noWrite: 'You need write access to the portal to commit the resolution.',
  merged: 'Merged automatically',
  mergedIntro: 'Both sides changed these files; they merge without conflicts.',
  fileRegion: (path: string) => `Conflicts in ${path}`,
  conflictRegion: (file: string, label: string) => `${file}: ${label}`,
  conflictCount: (n: number) => plural(n, 'conflict'),
  binaryNote: 'A binary file: keep your version or theirs.',

  // One conflict
  theirs: 'Theirs',
  mine: 'Mine',
  base: 'Base',
  absent: '(absent)',
  showBase: 'Show base',
  choiceGroup: (label: string) => `What to keep for ${label}`,
  keepMine: 'Keep mine',
  keepTheirs: 'Keep theirs',
  useBase: 'Use base',
  edit: 'Edit',
  editLabel: 'Merged value',
  editJsonHelp: 'JSON, e.g. "Hello" or {"id": 3}',
  editTextHelp: 'The lines to keep',
  invalidJson: 'This is not valid JSON.',
  schemaLoading: 'Loading the field',
  compareRendered: 'Compare rendered',
  renderedTheirs: 'Theirs (rendered)',
  renderedMine: 'Mine (rendered)',
  renderedBase: 'Base (rendered)',
  renderLoading: 'Loading the page versions',

  // Local changes panel
  conflictFallback:
    'Your changes conflict with changes another user committed. Resolve the conflicts to continue; your local commit is kept until you do.',
  resolveConflicts: 'Resolve conflicts',
  resetWorkspace: 'Reset Workspace',
  resetTitle: 'Reset Workspace?',
  resetConfirm: 'Reset',
  resetQuestion: (days: number | undefined) =>
    `Reset discards your local commits and uncommitted changes. They are kept under Recover discarded work${keptFor(days)}, where you can restore them.`,
  resetting: 'Resetting Workspace',
  resetFailed: 'Could not reset the workspace',
  resolveFirst: 'Resolve the conflicts first',

  // Discarded work
  recover: 'Recover discarded work',
  recoverIntro: (days: number | undefined) =>
    `Local commits and uncommitted changes that a Reset or a branch override put aside${days ? `, kept${keptFor(days)}` : ''}. Restoring brings them back as uncommitted changes.`,
  discardedTable: 'Discarded work',
  discardedEmpty: 'No discarded work',
  discardedFailed: 'Could not load the discarded work',
  restore: 'Restore',
  restoreFailed: 'Could not restore the discarded work',
  restored: 'Discarded work restored to your local changes.',
  overlappingTitle: 'Restored over other changes',
  overlapping: (files: string[]) =>
    `The restored version replaced other authors' overlapping edits in: ${files.join(', ')}`,
  filesToggle: (n: number) => plural(n, 'file'),
  filesOf: (time: string) => `Files discarded at ${time}`,
  commitsCount: (n: number) => plural(n, 'commit'),
  close: 'Close',

  // Review
  review: 'Review',
  reviewAll: 'Review all',
  reviewFile: (path: string) => `Review ${path}`,
  reviewTitle: 'Review changes',
  reviewUserTitle: (name: string) => `Changes of ${name}`,
  reviewCommitTitle: (sha: string) => `Changes of commit ${sha}`,
  reviewCommit: (sha: string) => `Review changes of ${sha}`,
  changes: 'Changes',
  reviewFiles: 'Changed files',
  reviewEmpty: 'No changes to review',
  reviewLoading: 'Loading the changes',
  reviewFailed: 'Could not load the changes',
  previous: 'Previous file',
  next: 'Next file',
  position: (i: number, n: number) => `File ${i} of ${n}`,
  fieldTable: (path: string) => `Field changes of ${path}`,
  keyTable: (path: string) => `Key changes of ${path}`,
  fieldColumn: 'Path',
  keyColumn: 'Key',
  changeColumn: 'Change',
  oldColumn: 'Old',
  newColumn: 'New',
  noFieldChanges: 'No field changes',
  noLineChanges: 'No line changes',
  lineChanges: (path: string) => `Line changes of ${path}`,
  truncated: 'The diff is too long and was cut short.',
  binaryChanged: 'A binary file changed; it cannot be shown.',
  modeChanged: (from: string, to: string) => `Mode changed from ${from} to ${to}`,
  before: 'Before',
  after: 'After',
  renderedBefore: 'Before (rendered)',
  renderedAfter: 'After (rendered)',
  none: 'None',
  imageFailed: 'Could not load the image',
  sourceChanges: 'Source changes',
} as const;

export const FIELD_OP_LABEL = { add: 'Added', remove: 'Removed', change: 'Changed', move: 'Moved' } as const;
