import type { MarkupProblem } from './markup';

/** Source mode's texts (spec 2 §2 "Routes", §4 "Pages and designer", §8). */
export const SOURCE_MESSAGES = {
  title: 'Source mode',
  /** The leave prompt of the designer's dirty cache (spec 2 §4). */
  leaveQuestion: 'Would you like to save your changes before navigating?',
  leaveTitle: 'Unsaved changes',
  /** The batch save's failure (spec 2 §8 "Design surface"). */
  saveFailed: 'Could not save design surface changes.',
  /** A batch answer without the page's item. */
  noResult: 'The server answered no result for the page.',
  saved: 'Page saved to your workspace.',
  retrieveFailed: 'Failed to retrieve page.',
  designerMode: 'Designer mode',
  editorLabel: (page: string) => `HTML source of ${page}`,
  /** The warning before a page with unbalanced markup is written (issue 22 item 5). */
  unbalancedTitle: 'Unbalanced markup',
  unbalancedText: (p: MarkupProblem) =>
    p.kind === 'unexpected-close'
      ? `Line ${p.line}: </${p.tag}> closes an element that is not open. Save the page anyway?`
      : `Line ${p.line}: <${p.tag}> is never closed. Save the page anyway?`,
  saveAnyway: 'Save anyway',
  keepEditing: 'Keep editing',
  masterNote: 'The master page is the portal\u2019s index.html.',
} as const;
