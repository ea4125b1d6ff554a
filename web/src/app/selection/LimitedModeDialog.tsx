import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useSessionStore } from '../../core/sessionStore';
import { answerLimitedMode, useLimitedOverlayStore } from './limitedMode';

export const LIMITED_MODE_TEXT = {
  title: 'Limited Portal',
  body: 'This portal is supported in limited mode only: some features (languages, pages, whitelist, translations and the task runner) are not available while you edit it.',
  dontShow: 'Do not show this message again',
} as const;

interface LinkLike {
  title?: string;
  url?: string;
}

/** The optional probe-config links: userGuide and previousVersion ({title, url} or a URL). */
function probeLink(config: unknown, key: 'userGuide' | 'previousVersion'): string | null {
  if (!config || typeof config !== 'object') return null;
  const value = (config as Record<string, unknown>)[key];
  if (typeof value === 'string' && value) return value;
  const url = (value as LinkLike | undefined)?.url;
  return typeof url === 'string' && url ? url : null;
}

/** The limited-mode warning overlay (spec 1 §2.5): Cancel, Proceed, 'Do not show this message again'. */
export function LimitedModeDialog() {
  const portal = useLimitedOverlayStore((s) => s.portal);
  const userId = useSessionStore((s) => s.user?.id);
  const config = useSessionStore((s) => s.probeConfig);
  const [dontShow, setDontShow] = useState(false);
  const guide = probeLink(config, 'userGuide');
  const previous = probeLink(config, 'previousVersion');
  const close = (proceed: boolean) => {
    answerLimitedMode(proceed, proceed && dontShow ? userId : undefined);
    setDontShow(false);
  };
  return (
    <Dialog open={!!portal} onClose={() => close(false)} aria-labelledby="limited-mode-title" maxWidth="sm" fullWidth>
      <DialogTitle id="limited-mode-title">{LIMITED_MODE_TEXT.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>
            <strong>{portal?.name}</strong>: {LIMITED_MODE_TEXT.body}
          </Typography>
          {(guide || previous) && (
            <Stack direction="row" spacing={2}>
              {guide && (
                <Link href={guide} target="_blank" rel="noopener noreferrer">
                  User guide
                </Link>
              )}
              {previous && (
                <Link href={previous} target="_blank" rel="noopener noreferrer">
                  Previous version
                </Link>
              )}
            </Stack>
          )}
          <FormControlLabel
            control={<Checkbox checked={dontShow} onChange={(e) => setDontShow(e.target.checked)} />}
            label={LIMITED_MODE_TEXT.dontShow}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => close(false)}>Cancel</Button>
        <Button variant="contained" onClick={() => close(true)}>
          Proceed
        </Button>
      </DialogActions>
    </Dialog>
  );
}
