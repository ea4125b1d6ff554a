/** The loadable screens' texts (spec 3 §2, §8; the rule messages are the server's, internal/loadable). */
export const LOADABLE_MESSAGES = {
  createTitle: 'Create Loadable',
  manageTitle: 'Manage Loadables',
  notUniversal: 'Loadables are made of universal portals only.',

  // Spec 3 §8.
  previewFailed: 'Failed to generate loadable preview',
  downloadFailed: 'Could not download loadable',
  /** The success of a retried hand-over (UPLOAD_LOADABLE card). */
  retryStarted: 'Your package is now being downloaded and will be available shortly.',
  cannotRetry: 'Unable to retry. Please contact administrator',

  // The server's rule messages (internal/loadable/loadable.go msg*).
  name: 'Please enter a name of 1 to 64 letters, digits, dots, underscores and dashes, starting with a letter or digit.',
  partNumber:
    'Please enter a part number of 3 to 32 capital letters, digits and dashes, starting with a letter or digit.',
  versionPrefix: 'Please enter the version as major.minor, for example 1.0.',
  type: 'Please choose the payload type: PORTAL, MICROSITE, CAPTIVE or MEDIA.',
  copyright: 'Please accept the copyright statement.',
  gitRef: 'Please choose the branch, tag or commit to build the loadable from.',

  // Not fixed by the spec.
  steps: ['Source', 'Details', 'Copyright', 'Review'] as const,
  createIntro:
    'A loadable is a package of one commit of the portal. It is generated, then approved before it is handed over.',
  manageIntro: 'The packages of this portal: generate, approve or reject, download, preview and hand over.',
  validate: 'Validate',
  validating: 'Validating',
  valid: 'The reference can be built.',
  validateFirst: 'Validate the reference before going on.',
  validateFailed: 'Could not validate the reference',
  nameFailed: 'Could not suggest a name',
  partFailed: 'Could not suggest a part number',
  suggest: 'Suggest',
  accept: 'I accept the copyright statement',
  assets: 'Media files covered by the statement',
  noAssets: 'The commit has no media files.',
  ipAddress: 'Your address',
  copyrightFailed: 'Could not load the copyright statement',
  createAndGenerate: 'Create and generate',
  createFailed: 'Could not create the loadable',
  generateFailed: 'Could not generate the loadable',
  created: 'The loadable is being generated.',
  approveFailed: 'Could not approve the loadable',
  rejectFailed: 'Could not reject the loadable',
  approved: 'Loadable approved.',
  // The readiness gate (issue 29; docs/readiness.md "The approval gate").
  overrideTitle: 'Approve despite readiness errors',
  overrideText:
    'The commit of this loadable has readiness errors, and the portal refuses approval while errors remain. You may approve it all the same: say why. The reason is kept with the loadable and in the audit history.',
  overrideSubmit: 'Approve anyway',
  overrideReasonTooLong: 'The reason may be at most 1000 characters long.',
  approvedOver: (errors: number, reason: string) =>
    `Approved over ${errors} readiness ${errors === 1 ? 'error' : 'errors'}: ${reason}`,
  readiness: 'Readiness',
  rejected: 'Loadable rejected.',
  loadFailed: 'Could not load the loadables',
  empty: 'No loadables yet.',
  rejectTitle: 'Reject loadable',
  rejectText: 'The loadable will never be handed over. You may give a reason.',
  reason: 'Reason',
  reasonTooLong: 'The reason may be at most 1000 characters long.',
  outputTitle: 'Build output',
  previewTitle: 'Preview loadable',
  emulator: 'Emulator',
  handOverTitle: 'Hand over loadable',
  handOverText: 'Choose the downstream system to send the approved package to.',
  target: 'Target',
  noTargets: 'No hand-over target is configured on this server.',
  handOverFailed: 'Could not hand over the loadable',
  handedOver: 'The loadable is queued for hand-over.',
  deliveries: 'Hand-overs',
  noDeliveries: 'Not handed over yet.',
  retryFailed: 'Could not retry the hand-over',
  retried: 'The hand-over is queued again.',
  // The branch-change warning (spec 3 §2, §4 "Branch switching").
  branchChangeTitle: 'A loadable is being created',
  branchChangeText:
    'A loadable of this portal is being created. Switching the branch now does not stop it, but the wizard is reset. Do you want to switch the branch?',
  continue: 'Continue',
  openManage: 'Manage Loadables',
  retry: 'Retry',
  download: 'Download',
  buildOutput: 'Build output',
  cancel: 'Cancel',
} as const;

/** Labels of the statuses. */
export const STATUS_LABELS: Record<string, string> = {
  PENDING: 'Pending',
  GENERATING: 'Generating',
  GENERATED: 'Generated',
  FAILED: 'Failed',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
};

export const STATUS_COLORS: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning' | 'primary'> = {
  PENDING: 'default',
  GENERATING: 'info',
  GENERATED: 'primary',
  FAILED: 'error',
  APPROVED: 'success',
  REJECTED: 'warning',
};

export const DELIVERY_COLORS: Record<string, 'default' | 'info' | 'success' | 'error'> = {
  QUEUED: 'default',
  SENDING: 'info',
  DELIVERED: 'success',
  FAILED: 'error',
};

export const EMULATOR_LABELS: Record<string, string> = { phone: 'Phone', tablet: 'Tablet', desktop: 'Desktop' };

/** The branch-change warning dialog's width (spec 3 §9). */
export const BRANCH_CHANGE_DIALOG_WIDTH = 600;
/** The loadable-created toast's time-out (spec 3 §9). */
export const LOADABLE_CREATED_TOAST_MS = 6000;
