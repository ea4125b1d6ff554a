/**
 * The link manager (spec 2 §2 "Link manager", §4 "Links", §5 "Links", §6): a dialog 815 px wide
 * (spec 2 §9) with the four link types as tabs, preselected from the value's detected type, and
 * Save and Close. Save needs asset:w (without it the dialog is a read-only view) and is enabled
 * only when the chosen type's rules pass.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { micrositeKeys, micrositesApi } from '../../../api/microsites';
import type { Id } from '../../../api/portal';
import { usePermission } from '../../../core/usePermission';
import { toasts } from '../../../core/toastService';
import { Loading } from '../../../ui/Loading';
import { AssetPicker } from '../../assets';
import { WIDGET_MESSAGES } from '../messages';
import { SingleSelectList } from '../SingleSelectList';
import { useSitemap } from '../useSitemap';
import { ExternalLinkFields } from './ExternalLinkFields';
import { InternalLinkFields } from './InternalLinkPicker';
import { LINK_TYPES, micrositeTarget, type LinkType } from './linkType';
import { assetLink, initialLinkState, linkResult, type ExternalState, type LinkState } from './model';
import { useSaveShortcut } from '../../../core/shortcuts';

/** The link manager's width (spec 2 §9 "other dialogs 815 … px wide"). */
export const LINK_MANAGER_WIDTH = 815;
/** The permission of the link manager's actions (spec 2 §6). */
export const LINK_MANAGER_PERMISSION = 'asset:w';

export interface LinkManagerDialogProps {
  open: boolean;
  /** The current link ('' for none). */
  value: string;
  onSave: (value: string) => void;
  onClose: () => void;
  domainId: Id;
  portalId: Id;
}

export function LinkManagerDialog(props: LinkManagerDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      maxWidth={false}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { width: LINK_MANAGER_WIDTH, maxWidth: '100%' } } }}
    >
      {props.open && <LinkManagerBody {...props} titleId={titleId} />}
    </Dialog>
  );
}

function LinkManagerBody({
  value,
  onSave,
  onClose,
  domainId,
  portalId,
  titleId,
}: LinkManagerDialogProps & { titleId: string }) {
  const canSave = usePermission(LINK_MANAGER_PERMISSION);
  // Without asset:w the dialog only shows the link.
  const readOnly = !canSave;
  const [state, setState] = useState<LinkState>(() => initialLinkState(value));
  const [urlTouched, setUrlTouched] = useState(false);
  const [picking, setPicking] = useState(false);
  const sitemap = useSitemap(domainId, portalId);
  const root = sitemap.data;
  const microsites = useQuery({
    queryKey: micrositeKeys.linked(domainId, portalId),
    queryFn: () => micrositesApi.linked(domainId, portalId),
    enabled: state.type === 'MicroSite',
    retry: false,
  });
  const micrositesFailed = microsites.isError;
  useEffect(() => {
    if (micrositesFailed) toasts.danger(WIDGET_MESSAGES.micrositesFailed);
  }, [micrositesFailed]);

  const set = <K extends keyof LinkState>(key: K, next: LinkState[K]) => setState((s) => ({ ...s, [key]: next }));
  const setExternal = (patch: Partial<ExternalState>) =>
    setState((s) => ({ ...s, external: { ...s.external, ...patch } }));

  const { saveable, result } = linkResult(state, root);
  const save = () => {
    onSave(result);
    onClose();
  };
  useSaveShortcut(save, canSave && saveable);

  const tabId = (t: LinkType) => `${titleId}-tab-${t}`;
  const panelId = (t: LinkType) => `${titleId}-panel-${t}`;
  const pagesLoading = sitemap.isPending;

  return (
    <>
      <DialogTitle id={titleId}>{WIDGET_MESSAGES.linkManagerTitle}</DialogTitle>
      <DialogContent>
        <Tabs
          value={state.type}
          onChange={(_, next: LinkType) => set('type', next)}
          aria-label="Link type"
          sx={{ mb: 2 }}
        >
          {LINK_TYPES.map((t) => (
            <Tab key={t} value={t} label={t} id={tabId(t)} aria-controls={panelId(t)} />
          ))}
        </Tabs>
        <div role="tabpanel" id={panelId(state.type)} aria-labelledby={tabId(state.type)}>
          {sitemap.isError && (state.type === 'Internal' || state.type === 'External') && (
            <Typography color="error" sx={{ mb: 1 }}>
              {WIDGET_MESSAGES.sitemapFailed}
            </Typography>
          )}

          {state.type === 'Internal' && (
            <InternalLinkFields
              root={root}
              loading={pagesLoading}
              link={state.internal}
              disabled={readOnly}
              onChange={(next) => set('internal', next)}
            />
          )}

          {state.type === 'External' && (
            <ExternalLinkFields
              external={state.external}
              onChange={setExternal}
              urlTouched={urlTouched}
              onUrlTouched={() => setUrlTouched(true)}
              root={root}
              loading={pagesLoading}
              readOnly={readOnly}
            />
          )}

          {state.type === 'Asset' && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <TextField
                size="small"
                fullWidth
                label="Asset"
                value={state.asset}
                placeholder={WIDGET_MESSAGES.noAssetChosen}
                slotProps={{ htmlInput: { readOnly: true } }}
              />
              <Button variant="outlined" disabled={readOnly} onClick={() => setPicking(true)} sx={{ flexShrink: 0 }}>
                Select Asset
              </Button>
            </Stack>
          )}

          {state.type === 'MicroSite' &&
            (microsites.isPending ? (
              <Loading label="Loading the microsites" />
            ) : microsites.isError ? (
              <Typography color="error">{WIDGET_MESSAGES.micrositesFailed}</Typography>
            ) : (
              <SingleSelectList
                label="Microsites"
                searchable
                options={(microsites.data ?? []).map((m) => ({ value: micrositeTarget(m.name), label: m.name }))}
                value={state.microsite || null}
                disabled={readOnly}
                onChange={(next) => set('microsite', next)}
                emptyText={WIDGET_MESSAGES.noMicrosites}
              />
            ))}
        </div>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{WIDGET_MESSAGES.close}</Button>
        {canSave && (
          <Button variant="contained" disabled={!saveable} onClick={save}>
            {WIDGET_MESSAGES.save}
          </Button>
        )}
      </DialogActions>
      {picking && (
        <AssetPicker
          domain={domainId}
          portal={portalId}
          variant="any"
          onSelect={(assets) => {
            const chosen = assets[0];
            if (chosen) set('asset', assetLink(chosen.path));
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </>
  );
}
