/**
 * The history of one value and the blame of a file (issue 33). Other features put the History
 * action beside their values and open the blame of their files.
 */
export { HistoryButton, type HistoryButtonProps } from './HistoryButton';
export { ValueHistoryDialog, type ValueHistoryDialogProps } from './ValueHistoryDialog';
export { BlameButton } from './BlameButton';
export { BlameDialog, type BlameDialogProps } from './BlameDialog';
export { VALUE_HISTORY_MESSAGES } from './messages';
