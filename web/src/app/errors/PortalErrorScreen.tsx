import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { ApiError } from '../../api/errors';
import { FullScreenMessage } from '../screens/FullScreenMessage';
import { BrokenWindowIllustration } from '../screens/Illustration';
import { GLOBAL_ERROR_ACTION_LABELS, type GlobalErrorAction } from './GlobalErrorScreen';

export const PORTAL_OPEN_FAILED_TITLE = 'Failed to open the portal for editing';

/** Likely causes of a failed portal open (spec 1 §4.2). */
export const LIKELY_CAUSES = [
  'An HTML file of the portal is missing',
  'The index file for the current language is missing',
  'A pseudo page is missing its URL',
] as const;

export const SUBMIT_ERROR_COPIED = 'The error details were copied to the clipboard';

export interface PortalErrorScreenProps {
  /** The page (screen) the user was opening. */
  pageTitle: string;
  title?: string;
  message: string;
  error: ApiError | null;
  actions: Partial<Record<GlobalErrorAction, () => void>>;
}

/** The code's description when it says more than the code itself (never the code twice). */
const codeDesc = (error: ApiError | null) =>
  error?.errorCodeDesc && error.errorCodeDesc !== String(error.errorCode ?? '') ? error.errorCodeDesc : null;

/** The details the Submit Error button copies. */
export function errorDetails(pageTitle: string, message: string, error: ApiError | null): string {
  return [
    `Page: ${pageTitle}`,
    `HTTP status: ${error?.httpStatus ?? 'n/a'}`,
    `Error code: ${error?.errorCode ?? 'n/a'}${codeDesc(error) ? ` (${codeDesc(error)})` : ''}`,
    `Message: ${message}`,
    error?.requestId ? `Request id: ${error.requestId}` : null,
    `Time: ${new Date().toISOString()}`,
  ]
    .filter((l): l is string => l !== null)
    .join('\n');
}

const ORDER: GlobalErrorAction[] = ['reset', 'retry', 'continue', 'cancel'];

/**
 * The portal-open error screen (spec 1 §4.2): 'Failed to open the portal for editing', the page
 * title, HTTP status, error code description and message, the likely causes, Submit Error
 * (copies the details) and Retry, plus the other actions the error allows.
 */
export function PortalErrorScreen({
  pageTitle,
  title = PORTAL_OPEN_FAILED_TITLE,
  message,
  error,
  actions,
}: PortalErrorScreenProps) {
  const [copied, setCopied] = useState<string | null>(null);
  const submit = async () => {
    const text = errorDetails(pageTitle, message, error);
    try {
      await navigator.clipboard.writeText(text);
      setCopied(SUBMIT_ERROR_COPIED);
    } catch {
      setCopied('Could not copy the error details; please copy them from this page');
    }
  };
  const offered = ORDER.filter((a) => actions[a]);
  return (
    <FullScreenMessage
      title={title}
      illustration={<BrokenWindowIllustration />}
      actions={
        <>
          <Button variant="outlined" onClick={() => void submit()}>
            Submit Error
          </Button>
          {offered.map((action) => (
            <Button
              key={action}
              variant={action === 'retry' ? 'contained' : 'outlined'}
              color={action === 'reset' ? 'warning' : 'primary'}
              onClick={actions[action]}
            >
              {GLOBAL_ERROR_ACTION_LABELS[action]}
            </Button>
          ))}
        </>
      }
    >
      <Stack spacing={1} sx={{ textAlign: 'left', width: '100%' }}>
        <Typography role="alert" color="text.secondary">
          {message}
        </Typography>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, m: 0 }}>
          <dt>Page</dt>
          <dd style={{ margin: 0 }}>{pageTitle}</dd>
          <dt>HTTP status</dt>
          <dd style={{ margin: 0 }}>{error?.httpStatus ?? 'n/a'}</dd>
          <dt>Error code</dt>
          <dd style={{ margin: 0 }}>
            {error?.errorCode ?? 'n/a'}
            {codeDesc(error) ? ` — ${codeDesc(error)}` : ''}
          </dd>
        </Box>
        <Typography variant="subtitle2">Likely causes</Typography>
        <Box component="ul" aria-label="Likely causes" sx={{ m: 0, pl: 3 }}>
          {LIKELY_CAUSES.map((cause) => (
            <li key={cause}>{cause}</li>
          ))}
        </Box>
        {copied && (
          <Typography role="status" color="success.main">
            {copied}
          </Typography>
        )}
      </Stack>
    </FullScreenMessage>
  );
}
