/**
 * The preview's overlays (spec 2 §2, §4, §8): progress ('Please Wait', spinner or progress, fading
 * 0.5 s with a 1.5 s safety timeout), the missing-parameters screen and the page-open failure.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { codeDescription, DESIGNER_MESSAGES as MSG } from './messages';
import {
  canReset,
  canRetry,
  FADE_MS,
  FADE_SAFETY_MS,
  parameterErrors,
  type MissingParameters,
  type OverlayState,
  type PageOpenError,
} from './overlay';

const cover = {
  position: 'absolute',
  inset: 0,
  zIndex: 2,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  bgcolor: 'rgba(255,255,255,0.85)',
  p: 2,
  overflow: 'auto',
} as const;

/** The progress overlay: shown while loading, faded out when ready. */
export function ProgressOverlay({ state }: { state: OverlayState }) {
  const loading = state.phase === 'loading';
  const [mounted, setMounted] = useState(loading);
  useEffect(() => {
    if (loading) {
      setMounted(true);
      return;
    }
    // Fade out; unmount when the transition ends, or after the safety timeout at the latest.
    const timer = window.setTimeout(() => setMounted(false), FADE_SAFETY_MS);
    return () => window.clearTimeout(timer);
  }, [loading]);
  if (!mounted) return null;
  const progress = loading && state.mode === 'progress' ? state.progress : null;
  const message = loading ? state.message : MSG.pleaseWait;
  return (
    <Box
      sx={{
        ...cover,
        opacity: loading ? 1 : 0,
        transition: `opacity ${FADE_MS}ms`,
        pointerEvents: loading ? 'auto' : 'none',
      }}
      onTransitionEnd={() => !loading && setMounted(false)}
      data-testid="designer-progress-overlay"
    >
      <Stack spacing={2} sx={{ alignItems: 'center', minWidth: 240 }} role="status" aria-live="polite">
        {progress === null ? (
          <CircularProgress aria-label={message} />
        ) : (
          <LinearProgress variant="determinate" value={progress} sx={{ width: 240 }} aria-label={message} />
        )}
        <Typography>{message}</Typography>
      </Stack>
    </Box>
  );
}

export function MissingParametersScreen({
  missing,
  pageTitle,
  onSubmit,
}: {
  missing: MissingParameters;
  pageTitle: string;
  onSubmit: (params: Record<string, string>) => void;
}) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(missing.parameters.map((p) => [p.name, p.value ?? ''])),
  );
  const [touched, setTouched] = useState(false);
  const parameters = missing.parameters.length
    ? missing.parameters.map((p) => (missing.missing.includes(p.name) ? { ...p, required: true } : p))
    : missing.missing.map((name) => ({ name, required: true, value: '', description: '' }));
  const errors = parameterErrors(parameters, values);
  const invalid = Object.keys(errors).length > 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (invalid) return;
    onSubmit(Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== '')));
  };
  const headingId = 'designer-missing-parameters-title';
  return (
    <Box sx={cover}>
      <Paper
        component="form"
        noValidate
        onSubmit={submit}
        sx={{ p: 3, width: 440, maxWidth: '100%' }}
        role="dialog"
        aria-labelledby={headingId}
      >
        <Typography variant="h6" component="h2" id={headingId}>
          {MSG.openFailed(pageTitle || missing.title || missing.pageId)}
        </Typography>
        <Typography sx={{ my: 1.5 }}>{MSG.missingParametersText}</Typography>
        <Stack spacing={2}>
          {parameters.map((p) => (
            <TextField
              key={p.name}
              size="small"
              label={p.name}
              required={!!p.required}
              value={values[p.name] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [p.name]: e.target.value }))}
              error={!!errors[p.name] && touched}
              helperText={(touched && errors[p.name]) || p.description || undefined}
            />
          ))}
        </Stack>
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 2 }}>
          <Button type="submit" variant="contained" disabled={touched && invalid}>
            {MSG.submit}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}

/** The page's HTML file when the engine could not fetch it (HTTP 404 with the file's path). */
export function missingPageFile(error: PageOpenError): string | null {
  const path = (error.data as { path?: unknown } | null | undefined)?.path;
  return error.httpStatus === 404 && typeof path === 'string' && path.endsWith('.html') ? path : null;
}

export function FailureOverlay({
  error,
  pageTitle,
  onRetry,
  onReset,
}: {
  error: PageOpenError;
  pageTitle: string;
  onRetry: () => void;
  onReset: () => void;
}) {
  const retry = canRetry(error);
  const headingId = 'designer-failure-title';
  const missingFile = missingPageFile(error);
  return (
    <Box sx={cover}>
      <Paper sx={{ p: 3, width: 520, maxWidth: '100%' }} role="alertdialog" aria-labelledby={headingId}>
        <Typography variant="h6" component="h2" id={headingId}>
          {pageTitle}
        </Typography>
        <Typography variant="subtitle2" color="text.secondary">
          {error.errorTitle || MSG.openFailed(pageTitle)}
        </Typography>
        <Stack spacing={0.5} sx={{ my: 1.5 }}>
          <Typography>
            <strong>HTTP status:</strong> {error.httpStatus}
          </Typography>
          <Typography>
            <strong>Error:</strong>{' '}
            {missingFile ? MSG.pageFileMissingCode : `${codeDescription(error.errorCode)} (${error.errorCode})`}
          </Typography>
          <Typography data-testid="designer-failure-message">
            {missingFile ? MSG.pageFileMissing(missingFile) : error.errorMessage}
          </Typography>
        </Stack>
        <Typography variant="subtitle2">{MSG.likelyCauses}</Typography>
        <Box component="ul" sx={{ mt: 0.5 }}>
          {MSG.causes.map((c) => (
            <li key={c}>
              <Typography variant="body2">{c}</Typography>
            </li>
          ))}
        </Box>
        {!retry && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {MSG.cannotRetry}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          {canReset(error) && <Button onClick={onReset}>{MSG.reset}</Button>}
          {retry && (
            <Button variant="contained" onClick={onRetry}>
              {MSG.retry}
            </Button>
          )}
        </Stack>
      </Paper>
    </Box>
  );
}
