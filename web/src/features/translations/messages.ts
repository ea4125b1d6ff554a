/** Every text of the translation manager and selector that the spec fixes (spec 2 §2, §4, §5, §8). */
export const TRANSLATION_MESSAGES = {
  title: 'Translation Manager',
  currentLanguage: 'Current Language',
  loadFailed: (lang: string) => `Could not load translation data for lang '${lang}'`,
  saveFailed: (lang: string) => `Could not save translation data for language '${lang}'`,
  statusFailed: 'Could not retrieve language translation state',
  languageFailed: (code: string) => `Failed to load language ${code}`,
  componentFailed: 'Could not load the Translation Component',
  keyAdded: (key: string) => `Translation key '${key}' was added successfully`,
  keyDeleted: (key: string) => `Translation key '${key}' was deleted successfully`,
  keyExists: (key: string) => `Translation key '${key}' already exists`,
  noKeyForWidget: 'There is no translation key for this widget',
  saved: 'Translation data saved successfully',
  unsavedTitle: 'Unsaved Changes',
  unsavedQuestion: 'Would you like to save your changes and navigate away?',
  unsavedKey: 'This key is unsaved',
  pleaseWait: 'Please wait while workspace tasks are being validated and run...',
  editTranslation: 'Edit Translation',
  nothingSelected: '--- Nothing Selected ---',
  tooltips: {
    REQUIRED: 'Translation is still required for this key',
    REQUIRED_IN_OTHERS: 'Translation is still required for this key in other languages',
    DEFAULT_VALUE_MISSING: 'Translation value is missing in the default language',
    KEY_MISSING: 'Translation key is missing in other languages',
    KEY_MISSING_IN_OTHERS: 'Translation key is missing in other languages',
    KEY_MISSING_IN_DEFAULT: 'Translation key is missing in the default language',
  } as Record<string, string>,

  // Not fixed by the spec.
  completed: 'Translation is complete',
  notAvailable:
    'The Translation Manager is not available for this portal: limited, UNIVERSAL and captive portals have no translations.',
  notTranslationMode: 'Translations are managed only for portals in TRANSLATION language mode.',
  keyRule: "After its prefix a key may hold letters, digits, '_', '.' and '-' only (e.g. txt_welcome).",
  nestedKeyRule: 'A key is the names of its levels joined by single dots (e.g. nav.contact): no level may be empty.',
  nestedBelowText: (key: string, text: string) =>
    `'${key}' cannot be added below '${text}', which holds a text: a key is either a text or a group of keys.`,
  nestedAboveKeys: (key: string, below: string) =>
    `'${key}' is a group of keys ('${below}' is below it), so it cannot hold a text.`,
  plainTextHelp: "Plain text, as in this portal's locale files",
  noKeys: 'No translation keys match.',
  selectKey: 'Select a key to edit its value.',
  defaultLanguageValue: 'Default Language',
  deleteKeyTitle: 'Delete Translation Key',
  deleteKeyQuestion: (key: string) => `Delete the translation key '${key}' from every language?`,
  addKeyTitle: 'Add Translation Key',
} as const;

/** The longest key label shown in the list (spec 2 §9); the whole key is in its tooltip. */
export const KEY_LABEL_MAX = 28;

/** localStorage key of the spell-check choice. */
export const SPELL_CHECK_STORAGE_KEY = 'portalwright.translations.spellCheck';
