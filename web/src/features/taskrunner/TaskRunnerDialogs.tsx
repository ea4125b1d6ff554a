/** The task runner's dialogs: the last run's output and the Dockerfile lint warnings. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { toApiError } from '../../api/errors';
import { taskRunnerApi, taskRunnerKeys } from '../../api/taskRunner';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showToast, toasts } from '../../core/toastService';
import { Loading } from '../../ui/Loading';
import { TASK_RUNNER_MESSAGES as MSG } from './messages';
import { lintWarningsOf, outputText } from './model';
import { copyText } from '../../ui/copyText';

/** The last run's output (80vw) with Close and Copy ('Output copied to clipboard'). */
export function OutputDialog({
  domainId,
  portalId,
  onClose,
}: {
  domainId: string;
  portalId: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const query = useQuery({
    queryKey: taskRunnerKeys.output(domainId, portalId),
    queryFn: () => taskRunnerApi.output(domainId, portalId),
    retry: false,
    gcTime: 0,
  });
  useEffect(() => {
    if (!query.isError) return;
    toasts.danger(MSG.openOutputFailedMessage, MSG.openOutputFailedTitle);
    onClose();
  }, [query.isError, onClose]);
  if (query.isError) return null;
  const output = outputText(query.data);

  const copy = () => copyText(output, { copied: MSG.copied, failed: MSG.copyFailed });

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '80vw', maxWidth: '80vw' } } }}
    >
      <DialogTitle id={titleId}>{MSG.outputTitle}</DialogTitle>
      <DialogContent dividers>
        {query.isPending ? (
          <Loading label={MSG.outputTitle} />
        ) : output ? (
          <Box
            component="pre"
            aria-label={MSG.outputTitle}
            sx={{ m: 0, fontFamily: 'monospace', fontSize: 13, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          >
            {output}
          </Box>
        ) : (
          <Typography color="text.secondary">{MSG.noOutput}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{MSG.close}</Button>
        <Button variant="contained" disabled={query.isPending} onClick={() => void copy()}>
          {MSG.copy}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The Dockerfile lint warnings (GET …/lint): rule, message, line and a link to the rule. */
export function LintDialog({
  domainId,
  portalId,
  onClose,
}: {
  domainId: string;
  portalId: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const query = useQuery({
    queryKey: taskRunnerKeys.lint(domainId, portalId),
    queryFn: () => taskRunnerApi.lint(domainId, portalId),
    retry: false,
  });
  useEffect(() => {
    if (!query.isError) return;
    showToast({
      type: 'DANGER',
      title: MSG.lintFailed,
      message: toApiError(query.error).errorMessage,
      timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
      closeButton: true,
    });
    onClose();
  }, [query.isError, query.error, onClose]);
  if (query.isError) return null;
  const warnings = lintWarningsOf(query.data);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{MSG.lintWarnings}</DialogTitle>
      <DialogContent dividers>
        {query.isPending ? (
          <Loading label={MSG.lintWarnings} />
        ) : warnings.length === 0 ? (
          <Typography color="text.secondary">{MSG.noLintWarnings}</Typography>
        ) : (
          <List dense aria-label={MSG.lintWarnings}>
            {warnings.map((w, i) => (
              <ListItem key={`${w.rule}-${String(w.line)}-${String(i)}`} divider>
                <ListItemText
                  primary={`${w.rule}: ${w.message}`}
                  secondary={
                    <>
                      {`${MSG.lintLine} ${String(w.line)}`}
                      {w.url && (
                        <>
                          {' · '}
                          <Link href={w.url} target="_blank" rel="noopener noreferrer">
                            {MSG.learnMore}
                          </Link>
                        </>
                      )}
                    </>
                  }
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{MSG.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
