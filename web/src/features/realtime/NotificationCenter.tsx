import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import NotificationsOutlinedIcon from '@mui/icons-material/NotificationsOutlined';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { portalApi } from '../../api/portal';
import { HeaderPopover, useHeaderPopover } from '../../ui/HeaderPopover';
import { useAction } from '../../ui/useAction';
import { cardActions } from './cardActions';
import { ELAPSED_TICK_MS, formatElapsed } from './format';
import {
  clearNotifications,
  createdPortal,
  dismissNotification,
  isFinished,
  NOTIFICATION_REMOVAL_MS,
  portalDashboardPath,
  previewNotice,
  retryRequest,
  useNotificationsStore,
  type NotificationCard as Card,
  type RetryRequest,
} from './notificationsStore';

/** Notification menu delay (spec 3 §9): the tooltip opens after 500 ms. */
export const NOTIFICATION_MENU_DELAY_MS = 500;

const STATUS_LABEL = { PROGRESS: 'In progress', SUCCESS: 'Done', ERROR: 'Failed' } as const;
const STATUS_COLOR = { PROGRESS: 'info', SUCCESS: 'success', ERROR: 'error' } as const;

/** The current time, refreshed every `tickMs` while mounted. */
function useNow(tickMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}

async function runRetry(request: RetryRequest): Promise<void> {
  if (request.kind === 'clone') await portalApi.clone(request.domainId, request.sourcePortalId, request.portal);
  else
    await portalApi.createFromTemplate(request.domainId, request.portal, {
      templateId: request.templateId,
      starter: request.starter,
    });
}

function NotificationCardView({
  card,
  now,
  onNavigate,
}: {
  card: Card;
  now: number;
  onNavigate: (path: string) => void;
}) {
  const created = createdPortal(card);
  const retry = retryRequest(card);
  const preview = previewNotice(card);
  const names = preview ? [preview.domainName, preview.portalName].filter(Boolean).join(' · ') : '';
  const elapsedMs = (card.finishedAt ?? Math.max(now, card.startedAt)) - card.startedAt;
  const retryAction = useAction({
    action: runRetry,
    failure: (request) => (request.kind === 'clone' ? 'Failed to clone portal' : 'Failed to create portal'),
  });
  return (
    <Collapse
      in={!card.removing}
      timeout={NOTIFICATION_REMOVAL_MS}
      appear={false}
      component="li"
      aria-label={card.title || card.messageType || 'Notification'}
      data-status={card.status}
      sx={{ listStyle: 'none' }}
    >
      <Paper variant="outlined" sx={{ p: 1.5, mb: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle2" sx={{ wordBreak: 'break-word' }}>
              {card.title || card.messageType}
            </Typography>
            {names && (
              <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                {names}
              </Typography>
            )}
            {card.details && (
              <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
                {card.details}
              </Typography>
            )}
          </Box>
          <Chip size="small" label={STATUS_LABEL[card.status]} color={STATUS_COLOR[card.status]} />
          {isFinished(card) && (
            <IconButton
              size="small"
              aria-label={`Dismiss ${card.title || 'notification'}`}
              onClick={() => dismissNotification(card.id)}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          )}
        </Stack>
        <LinearProgress
          variant="determinate"
          value={card.progress}
          color={STATUS_COLOR[card.status]}
          aria-label="Progress"
          sx={{ mt: 1 }}
        />
        <Stack direction="row" spacing={1} sx={{ mt: 0.5, alignItems: 'center' }}>
          <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }}>
            {Math.round(card.progress)}% · Elapsed {formatElapsed(elapsedMs / 1000)}
          </Typography>
          {created && (
            <Button size="small" onClick={() => onNavigate(portalDashboardPath(created.domainId, created.portalId))}>
              GO TO PORTAL
            </Button>
          )}
          {retry && (
            <Button size="small" color="error" disabled={retryAction.pending} onClick={() => retryAction.run(retry)}>
              Retry
            </Button>
          )}
          {/* Registered by previews and loadables (./cardActions): they import realtime, not the reverse. */}
          {cardActions().map(({ id, Component }) => (
            <Component key={id} card={card} onNavigate={onNavigate} />
          ))}
        </Stack>
      </Paper>
    </Collapse>
  );
}

function NotificationList({ onNavigate }: { onNavigate: (path: string) => void }) {
  const cards = useNotificationsStore((s) => s.cards);
  const now = useNow(ELAPSED_TICK_MS);
  return (
    <Box sx={{ width: 380, maxWidth: 'calc(100vw - 32px)' }}>
      <Stack direction="row" sx={{ alignItems: 'center', px: 2, py: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ flex: 1 }}>
          Notifications
        </Typography>
        {cards.length > 0 && (
          <Button size="small" onClick={clearNotifications}>
            Clear all
          </Button>
        )}
      </Stack>
      <Divider />
      {cards.length === 0 ? (
        <Typography color="text.secondary" sx={{ px: 2, py: 3 }}>
          No notifications
        </Typography>
      ) : (
        <Box component="ul" aria-label="Notifications" sx={{ m: 0, p: 1.5, maxHeight: 480, overflowY: 'auto' }}>
          {cards.map((card) => (
            <NotificationCardView key={card.id} card={card} now={now} onNavigate={onNavigate} />
          ))}
        </Box>
      )}
    </Box>
  );
}

/**
 * The header's notification centre (spec 1 §2.1, spec 3 §4): a bell with the number of cards,
 * opening a popover with progress cards, their elapsed time, dismiss, 'Clear all',
 * 'GO TO PORTAL' for a created portal and 'Retry' for a failed one that can be retried; preview
 * cards (CREATE_PREVIEW, CREATE_LOADABLE_PREVIEW) show the domain and portal names, Details,
 * 'Open preview' once done and 'Retry' on error (features/preview/PreviewCardActions, registered
 * with the loadables' card actions in ./cardActions).
 */
export function NotificationCenter() {
  const count = useNotificationsStore((s) => s.cards.length);
  const menu = useHeaderPopover();
  const navigate = useNavigate();
  const onNavigate = (path: string) => {
    menu.close();
    void navigate(path);
  };
  return (
    <HeaderPopover
      control={menu}
      label={`Notifications: ${count}`}
      tooltip="Notifications"
      tooltipDelay={NOTIFICATION_MENU_DELAY_MS}
      triggerProps={{ color: 'inherit' }}
      icon={
        <Badge badgeContent={count} color="error" max={99} aria-hidden>
          <NotificationsOutlinedIcon />
        </Badge>
      }
      kind="dialog"
      panelLabel="Notifications"
    >
      <NotificationList onNavigate={onNavigate} />
    </HeaderPopover>
  );
}
