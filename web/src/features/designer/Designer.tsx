/**
 * The page designer (spec 2 §2 "Page designer and sitemap", §4 "Pages and designer"; design §7):
 * the portal engine renders the page in a sandboxed frame; widgets are outlined from the engine's
 * registerShortCode rects; a click opens the widget's property editor (built from its
 * config.probe.json); every change is sent to the frame at once (dataChanged) and kept in the
 * dirty cache, saved in one batch.
 */
import CodeIcon from '@mui/icons-material/Code';
import SaveIcon from '@mui/icons-material/Save';
import SettingsIcon from '@mui/icons-material/Settings';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useLeaveGuard } from '../../ui/useLeaveGuard';
import { portalKeys } from '../../api/portal';
import { usePermission } from '../../core/usePermission';
import { pageRoutePath } from '../../core/pageRoute';
import { useSelectionStore } from '../../core/selectionStore';
import { ConfirmDialog, PendingButton } from '../../ui/ConfirmDialog';
import { PageFrame } from '../../ui/PageFrame';
import { pagePath, PresenceBar, usePresence } from '../presence';
import { postTranslationUpdated } from '../translations';
import { findPage, PageSelector, useSitemap } from '../widgets';
import { DesignerAside } from './DesignerAside';
import { readPortalJson, type WidgetInstance } from './designerApi';
import { DesignerSurface } from './DesignerSurface';
import { dirtyItems, isDirty, markDirty, type DirtyCache } from './dirty';
import { DESIGNER_MESSAGES as MSG } from './messages';
import { designerPageTitle, frameBaseOf, frameEpochKey } from './model';
import type { FrameBaseOptions } from './protocol';
import { FULL_SIZE, useDesignerSettings } from './settings';
import { SettingsDialog } from './SettingsDialog';
import { useDesignerFrame } from './useDesignerFrame';
import { useDesignerSave } from './useDesignerSave';
import { useWidgetMediaQueries } from './useWidgetMediaQueries';
import { useSaveShortcut } from '../../core/shortcuts';

export interface DesignerProps {
  domain: string;
  portal: string;
  /** The branch name ('/' restored). */
  branch: string;
  language: string;
  pageId: string;
}

export function Designer({ domain, portal, branch, language, pageId }: DesignerProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const canWrite = usePermission('page:w');
  const portalInfo = useSelectionStore((s) => s.portalInfo);
  const settings = useDesignerSettings();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const sitemap = useSitemap(domain, portal);
  const page = findPage(sitemap.data, pageId);
  const pageTitle = designerPageTitle(page, pageId);
  const presence = usePresence(domain, portal, pagePath(pageId));
  const markEditing = presence.markEditing;

  const portalJson = useQuery({
    queryKey: [...portalKeys.workspace(domain, portal), 'designer-portal-json'],
    queryFn: () => readPortalJson(domain, portal),
    staleTime: 60_000,
  });
  const frameBase = useMemo<FrameBaseOptions | null>(
    () => (portalJson.isPending ? null : frameBaseOf(portalJson.data, portalInfo?.languageMode, language)),
    [portalJson.isPending, portalJson.data, portalInfo?.languageMode, language],
  );

  // ---- dirty cache
  const [dirty, setDirtyState] = useState<DirtyCache>({});
  const dirtyRef = useRef(dirty);
  const setDirty = useCallback((next: DirtyCache) => {
    dirtyRef.current = next;
    setDirtyState(next);
  }, []);
  const [selected, setSelected] = useState<string | null>(null);
  // Another page: its widgets are others (master-page widgets are clicked again when needed).
  useEffect(() => setSelected(null), [pageId]);

  const frame = useDesignerFrame({
    domain,
    portal,
    pageId,
    base: frameBase,
    onWidgetClicked: (id) => setSelected(id),
    // Unsaved edits survive page changes and frame reloads: sent again once the page is ready.
    onReady: () => {
      for (const item of dirtyItems(dirtyRef.current))
        if (item.type === 'WIDGET') frame.send('dataChanged', { id: item.id, data: item.object });
    },
  });

  // Reload Now, reverts, Reset, a translation saved in the selector…: every workspace refresh
  // refetches this query (its key is under the workspace's); the frame then reads the files again
  // unless unsaved edits are shown in it.
  const epoch = useQuery({
    queryKey: frameEpochKey(domain, portal),
    queryFn: () => Date.now(),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const firstEpoch = useRef<number | undefined>(undefined);
  const refreshFrame = frame.refresh;
  useEffect(() => {
    if (epoch.data === undefined) return;
    if (firstEpoch.current === undefined) {
      firstEpoch.current = epoch.data;
      return;
    }
    if (epoch.data !== firstEpoch.current && !isDirty(dirtyRef.current)) refreshFrame(String(epoch.data));
  }, [epoch.data, refreshFrame]);

  const onWidgetChange = useCallback(
    (id: string, instance: WidgetInstance, version: string) => {
      frame.send('dataChanged', { id, data: instance });
      setDirty(markDirty(dirtyRef.current, 'WIDGET', id, instance, version));
      markEditing();
    },
    [frame, setDirty, markEditing],
  );

  const { save, saving } = useDesignerSave({ domain, portal, dirtyRef, setDirty });

  /** Drops the unsaved edits and lets the frame read the widgets' files again. */
  const discard = useCallback(() => {
    for (const item of dirtyItems(dirtyRef.current))
      if (item.type === 'WIDGET') frame.send('dataChanged', { id: item.id });
    setDirty({});
  }, [frame, setDirty]);

  // ---- leaving with unsaved changes
  const hasDirty = isDirty(dirty);
  useSaveShortcut(() => void save(), canWrite && hasDirty && !saving);
  const blocker = useLeaveGuard(hasDirty && canWrite);

  const goToPage = (target: string) => {
    if (target && target !== pageId)
      void navigate(pageRoutePath(domain, portal, branch, language, target, 'designer-mode'));
  };

  const widgetQueries = useWidgetMediaQueries(domain, portal, frame.shortCodes);
  const editQuery = settings.mediaQuery || FULL_SIZE;

  return (
    <PageFrame
      title={MSG.title}
      overline={pageTitle}
      actions={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <Box sx={{ minWidth: 220 }}>
            <PageSelector
              domainId={domain}
              portalId={portal}
              value={pageId}
              label={MSG.pageSelector}
              root={sitemap.data}
              variant="popover"
              onChange={(p) => p && goToPage(p.id)}
            />
          </Box>
          <Button
            component={RouterLink}
            to={pageRoutePath(domain, portal, branch, language, pageId, 'source-mode')}
            startIcon={<CodeIcon />}
          >
            {MSG.sourceMode}
          </Button>
          <Button startIcon={<SettingsIcon />} onClick={() => setSettingsOpen(true)}>
            {MSG.settings}
          </Button>
          {canWrite && (
            <PendingButton pending={saving} disabled={!hasDirty} onClick={() => void save()}>
              <SaveIcon fontSize="small" sx={{ mr: 0.5 }} />
              {MSG.saveChanges}
            </PendingButton>
          )}
        </Stack>
      }
    >
      <PresenceBar domain={domain} portal={portal} path={pagePath(pageId)} />
      {frame.tokenError && (
        <Alert severity="error" role="alert">
          {MSG.tokenFailed}: {frame.tokenError}
        </Alert>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'stretch', minHeight: 'calc(100vh - 220px)' }}>
        <DesignerAside
          pageFile={pagePath(pageId)}
          domain={domain}
          portal={portal}
          language={language}
          widgetId={selected}
          query={editQuery}
          dirty={dirty}
          readOnly={!canWrite}
          onChange={onWidgetChange}
          widgets={frame.overlay.phase === 'ready' ? frame.shortCodes : {}}
          onSelectWidget={setSelected}
          onTranslationPreview={(key, value) => postTranslationUpdated(frame.frameRef.current, key, value, language)}
        />
        <DesignerSurface
          frame={frame}
          settings={settings}
          dirty={dirty}
          selected={selected}
          sitemap={sitemap.data}
          pageId={pageId}
          pageTitle={pageTitle}
          onReset={() => {
            void queryClient.invalidateQueries({ queryKey: portalKeys.workspace(domain, portal) });
            frame.reset();
          }}
        />
      </Stack>
      <SettingsDialog
        open={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        portalJson={portalJson.data}
        widgetQueries={widgetQueries}
      />
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title={MSG.navigateTitle}
        message={MSG.navigatePrompt}
        confirmLabel={MSG.save}
        cancelLabel={MSG.continue}
        pending={saving}
        onConfirm={() => {
          void save().then((saved) => (saved ? blocker.proceed?.() : blocker.reset?.()));
        }}
        onCancel={() => {
          discard();
          blocker.proceed?.();
        }}
        onClose={() => blocker.reset?.()}
      />
    </PageFrame>
  );
}
