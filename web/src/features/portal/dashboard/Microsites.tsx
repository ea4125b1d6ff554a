import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { micrositeKeys, micrositesApi, type Microsite } from '../../../api/microsites';
import type { Id } from '../../../api/portal';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { useAction } from '../../../ui/useAction';

export const MICROSITE_MESSAGES = {
  title: 'Microsites',
  none: 'No microsites are linked into this portal',
  loadFailed: 'Could not retrieve Microsites',
  chooserTitle: 'Link microsites',
  noneToLink: 'There are no other microsites in this domain to link.',
  linkFailed: 'Could not link the microsites',
  unlinkFailed: 'Could not unlink the microsite',
  linked: (n: number) => (n === 1 ? 'Microsite linked' : `${n} microsites linked`),
  unlinked: 'Microsite unlinked',
} as const;

/** The microsite link chooser (spec 3 §2): the domain's microsites not linked yet, several at a time. */
export function MicrositeChooser({
  d,
  p,
  linked,
  open,
  onClose,
}: {
  d: Id;
  p: Id;
  linked: readonly Microsite[];
  open: boolean;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState<number[]>([]);
  const all = useQuery({ queryKey: micrositeKeys.all(d), queryFn: () => micrositesApi.all(d), enabled: open });
  const linkedIds = new Set(linked.map((m) => m.id));
  const candidates = (all.data ?? []).filter((m) => !linkedIds.has(m.id) && String(m.id) !== String(p));
  const close = () => {
    setChosen([]);
    onClose();
  };
  const link = useAction<number[]>({
    action: (ids) => micrositesApi.link(d, p, ids),
    failure: MICROSITE_MESSAGES.linkFailed,
    success: (_data, ids) => MICROSITE_MESSAGES.linked(ids.length),
    invalidate: [micrositeKeys.linked(d, p)],
    onSuccess: close,
  });
  const toggle = (id: number) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));

  return (
    <Dialog
      open={open}
      onClose={() => !link.pending && close()}
      fullWidth
      maxWidth="sm"
      aria-labelledby="microsite-chooser-title"
    >
      <DialogTitle id="microsite-chooser-title">{MICROSITE_MESSAGES.chooserTitle}</DialogTitle>
      <DialogContent>
        {all.isPending ? (
          <Typography color="text.secondary">Loading…</Typography>
        ) : all.isError ? (
          <Typography color="error">{MICROSITE_MESSAGES.loadFailed}</Typography>
        ) : candidates.length === 0 ? (
          <Typography color="text.secondary">{MICROSITE_MESSAGES.noneToLink}</Typography>
        ) : (
          <List dense aria-label="Microsites to link">
            {candidates.map((m) => {
              const id = `microsite-choice-${m.id}`;
              return (
                <ListItem key={m.id} disablePadding>
                  <ListItemButton onClick={() => toggle(m.id)} dense>
                    <ListItemIcon>
                      <Checkbox
                        edge="start"
                        checked={chosen.includes(m.id)}
                        tabIndex={-1}
                        disableRipple
                        slotProps={{ input: { 'aria-labelledby': id } }}
                      />
                    </ListItemIcon>
                    <ListItemText primary={m.name} secondary={m.target} slotProps={{ primary: { id } }} />
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={link.pending}>
          Cancel
        </Button>
        <Button variant="contained" disabled={chosen.length === 0 || link.pending} onClick={() => link.run(chosen)}>
          Link
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The Microsites card of the portal dashboard (portals whose scope is not MICROSITE): the
 * microsites linked into the portal, Link… (the chooser) and Unlink, for holders of microsite:l.
 */
export function Microsites({ d, p, canLink }: { d: Id; p: Id; canLink: boolean }) {
  const [choosing, setChoosing] = useState(false);
  const [unlinking, setUnlinking] = useState<Microsite | null>(null);
  const linked = useQuery({ queryKey: micrositeKeys.linked(d, p), queryFn: () => micrositesApi.linked(d, p) });
  const unlink = useAction<Microsite>({
    action: (m) => micrositesApi.unlink(d, p, [m.id]),
    failure: MICROSITE_MESSAGES.unlinkFailed,
    success: MICROSITE_MESSAGES.unlinked,
    invalidate: [micrositeKeys.linked(d, p)],
    onSuccess: () => setUnlinking(null),
  });
  const list = linked.data ?? [];

  return (
    <Card variant="outlined" component="section" aria-labelledby="microsites-title" sx={{ flex: 1, minWidth: 280 }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography id="microsites-title" variant="h6" component="h2">
            {MICROSITE_MESSAGES.title}
          </Typography>
          {canLink && (
            <Button size="small" onClick={() => setChoosing(true)}>
              Link…
            </Button>
          )}
        </Stack>
        {linked.isPending ? (
          <Typography color="text.secondary">Loading…</Typography>
        ) : linked.isError ? (
          <Typography color="error">{MICROSITE_MESSAGES.loadFailed}</Typography>
        ) : list.length === 0 ? (
          <Typography color="text.secondary">{MICROSITE_MESSAGES.none}</Typography>
        ) : (
          <List dense disablePadding aria-label="Linked microsites">
            {list.map((m) => (
              <ListItem
                key={m.id}
                disableGutters
                secondaryAction={
                  canLink && (
                    <Button
                      size="small"
                      color="warning"
                      onClick={() => setUnlinking(m)}
                      aria-label={`Unlink ${m.name}`}
                    >
                      Unlink
                    </Button>
                  )
                }
              >
                <ListItemText primary={m.name} secondary={m.target} sx={{ pr: 8 }} />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
      {canLink && <MicrositeChooser d={d} p={p} linked={list} open={choosing} onClose={() => setChoosing(false)} />}
      <ConfirmDialog
        open={!!unlinking}
        title="Unlink microsite"
        message={`Unlink '${unlinking?.name ?? ''}' from this portal?`}
        confirmLabel="Unlink"
        danger
        pending={unlink.pending}
        onConfirm={() => unlinking && unlink.run(unlinking)}
        onClose={() => setUnlinking(null)}
      />
    </Card>
  );
}
