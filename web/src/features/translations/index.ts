/**
 * What other features use of the translations: the TranslationSelector widget of the designer's
 * property fields and the message that tells the preview frame a translation changed. The
 * Translation manager itself is a lazily loaded route (register.ts).
 */
export { TranslationSelector, type TranslationSelectorProps } from './TranslationSelector';
export { postTranslationUpdated, translationUpdatedMessage, TRANSLATION_UPDATED } from './previewMessage';
