/** Every visible text of the page designer (spec 2 §2, §4, §8). */
export const DESIGNER_MESSAGES = {
  title: 'Page Designer',
  pleaseWait: 'Please Wait',
  saveFailed: 'Could not save design surface changes.',
  saved: 'Design surface changes saved',
  navigatePrompt: 'Would you like to save your changes before navigating?',
  navigateTitle: 'Unsaved changes',
  save: 'Save',
  continue: 'Continue',
  openFailed: (title: string) => `Failed to open page: ${title}`,
  missingParametersText: 'The page cannot be opened because required parameters are missing. Please provide them.',
  required: (name: string) => `${name} is required.`,
  submit: 'Submit',
  retry: 'Retry',
  reset: 'Reset',
  cannotRetry: 'Unable to retry. Please contact administrator',
  likelyCauses: 'Likely causes',
  causes: ['a missing HTML file', 'a missing index file for the current language', 'a pseudo page missing its URL'],
  overlayFailed: 'Failed to overlay component',
  unknownError: 'An unknown error occurred',
  /** A 404 for the page's HTML file (spec 2 §8 lists "a missing HTML file" as a likely cause). */
  pageFileMissing: (path: string) =>
    `The page file ${path} is missing from your workspace. Restore it, or remove the page from the sitemap.`,
  pageFileMissingCode: 'The page file is missing',
  limited: 'The page designer is not available for limited portals. Edit their files in the File Explorer.',
  universal:
    'The page designer is not available for UNIVERSAL portals. Edit their content with the JSON editor in the File Explorer.',
  openFileExplorer: 'Open File Explorer',
  notPortalEngine: 'This portal has no page engine to preview.',
  tokenFailed: 'Could not open the preview',
  sourceMode: 'Source mode',
  settings: 'Editor settings',
  propertiesTitle: 'Properties',
  /** The title of the page's readiness findings in the designer's panel (issue 29). */
  pageReadiness: 'This page',
  noWidget: 'Click a widget in the page to edit its properties.',
  readOnly: 'You can view these properties but not change them (page write permission needed).',
  pageSelector: 'Page',
  /** The aside's choice of the page's widgets: the keyboard's way to a widget (issue 31). */
  widgetSelector: 'Widget',
  frameTitle: 'Portal preview',
  saveChanges: 'Save changes',
  discardChanges: 'Discard changes',
} as const;

/** Descriptions of the page engine codes (spec 2 §8). */
export const ENGINE_CODE_DESCRIPTIONS: Record<string, string> = {
  TIMED_OUT: 'The page did not finish loading in time.',
  FAILED_TO_INIT_IFAPI: 'The portal interface API failed to initialise.',
  FAILED_TO_INIT_ENGINE: 'The portal engine failed to initialise.',
  MISSING_ENGINE: 'The portal engine is missing.',
  MISSING_PARAMETERS: 'Required page parameters are missing.',
  UNKNOWN_ERROR: 'An unknown error occurred',
};

export const codeDescription = (code: string | number | null | undefined): string =>
  (code != null && ENGINE_CODE_DESCRIPTIONS[String(code)]) || ENGINE_CODE_DESCRIPTIONS.UNKNOWN_ERROR;
