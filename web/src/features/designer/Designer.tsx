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
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useBlocker, useNavigate } from 'react-router';
import { portalKeys } from '../../api/portal';
import { toApiError } from '../../api/errors';
import { usePermission } from '../../app/permissions/usePermission';
import { isWorkspaceQueryKey } from '../../app/selection/workspaceRefresh';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../app/toasts/toastService';
import { PendingButton } from '../../ui/ConfirmDialog';
import { PageFrame } from '../../ui/PageFrame';
import { pagePath, PresenceBar, usePresence } from '../presence';
import { findPage, pageLabel, PageSelector, useSitemap } from '../widgets';
import { postTranslationUpdated } from '../widgets/translation/previewMessage';
import { pagesApi } from '../../api/pages';
import { isSafeName, readPortalJson, readWidgetInstance, type WidgetInstance } from './designerApi';
import {
  applyBatchResult,
  batchItems,
  dirtyItems,
  dirtyKey,
  failAll,
  isDirty,
  markDirty,
  type DirtyCache,
} from './dirty';
import { DESIGNER_MESSAGES as MSG } from './messages';
import { FailureOverlay, MissingParametersScreen, ProgressOverlay } from './Overlays';
import { designerWidgetKey, isDesignerWidgetKey, PropertyPanel } from './PropertyPanel';
import { MASTER_PAGE_ID, PREVIEW_SANDBOX, type FrameBaseOptions } from './protocol';
import { pageRoutePath } from '../../app/selection/pageRoute';
import { FULL_SIZE, LEFT_PANEL_MIN_WIDTH, mediaQueryWidth, useDesignerSettings } from './settings';
import { SettingsDialog } from './SettingsDialog';
import { useDesignerFrame } from './useDesignerFrame';

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
  const pageTitle = page ? pageLabel(page) : pageId === MASTER_PAGE_ID ? 'Master Page' : pageId;
  const presence = usePresence(domain, portal, pagePath(pageId));
  const markEditing = presence.markEditing;

  const portalJson = useQuery({
    queryKey: [...portalKeys.workspace(domain, portal), 'designer-portal-json'],
    queryFn: () => readPortalJson(domain, portal),
    staleTime: 60_000,
  });
  const frameBase = useMemo<FrameBaseOptions | null>(() => {
    if (portalJson.isPending) return null;
    const json = (portalJson.data ?? {}) as Record<string, unknown>;
    const runner = (json.taskRunnerSettings ?? {}) as Record<string, unknown>;
    const langs = (json.languageSettings ?? {}) as Record<string, unknown>;
    return {
      taskRunnerActive: runner.active === true,
      outputPath: typeof runner.outputPath === 'string' ? runner.outputPath : null,
      languageMode: typeof langs.languageMode === 'string' ? langs.languageMode : (portalInfo?.languageMode ?? null),
      language,
    };
  }, [portalJson.isPending, portalJson.data, portalInfo?.languageMode, language]);

  // ---- dirty cache
  const [dirty, setDirtyState] = useState<DirtyCache>({});
  const dirtyRef = useRef(dirty);
  const setDirty = useCallback((next: DirtyCache) => {
    dirtyRef.current = next;
    setDirtyState(next);
  }, []);
  const [selected, setSelected] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
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

  const save = useCallback(async (): Promise<boolean> => {
    const sent = dirtyRef.current;
    if (!isDirty(sent)) return true;
    setSaving(true);
    try {
      const results = await pagesApi.batch(domain, portal, batchItems(sent));
      const applied = applyBatchResult(sent, results, dirtyRef.current);
      setDirty(applied.cache);
      for (const s of applied.saved) {
        const item = sent[dirtyKey(s.type, s.id)];
        if (s.type === 'WIDGET' && item)
          queryClient.setQueryData(designerWidgetKey(domain, portal, s.id), {
            instance: item.object,
            version: s.version,
          });
      }
      if (applied.failed.length) {
        toasts.show({
          type: 'DANGER',
          title: MSG.saveFailed,
          message: applied.failed.map((f) => `${f.id}: ${f.error?.errorMessage ?? ''}`).join('\n'),
          timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
          closeButton: true,
        });
      } else toasts.success(MSG.saved);
      // The header's local changes and every other view of the workspace follow the save.
      void queryClient
        .invalidateQueries({
          predicate: (q) =>
            isWorkspaceQueryKey(q.queryKey, domain, portal) &&
            !isDesignerWidgetKey(q.queryKey) &&
            q.queryKey[3] !== FRAME_EPOCH,
        })
        .catch(() => undefined);
      return applied.failed.length === 0;
    } catch (error) {
      setDirty(failAll(dirtyRef.current, error));
      toasts.show({
        type: 'DANGER',
        title: MSG.saveFailed,
        message: toApiError(error).errorMessage,
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
      return false;
    } finally {
      setSaving(false);
    }
  }, [domain, portal, queryClient, setDirty]);

  /** Drops the unsaved edits and lets the frame read the widgets' files again. */
  const discard = useCallback(() => {
    for (const item of dirtyItems(dirtyRef.current))
      if (item.type === 'WIDGET') frame.send('dataChanged', { id: item.id });
    setDirty({});
  }, [frame, setDirty]);

  // ---- leaving with unsaved changes
  const hasDirty = isDirty(dirty);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => hasDirty && canWrite && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!hasDirty || !canWrite) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [hasDirty, canWrite]);

  const goToPage = (target: string) => {
    if (target && target !== pageId)
      void navigate(pageRoutePath(domain, portal, branch, language, target, 'designer-mode'));
  };

  // ---- frame geometry
  const scale = settings.scale / 100;
  const queryWidth = mediaQueryWidth(settings.mediaQuery);
  // The instances of the widgets shown (cached for the property editor): their media queries are offered.
  const shownIds = useMemo(() => Object.keys(frame.shortCodes).filter(isSafeName).sort(), [frame.shortCodes]);
  const instances = useQueries({
    queries: shownIds.map((id) => ({
      queryKey: designerWidgetKey(domain, portal, id),
      queryFn: () => readWidgetInstance(domain, portal, id),
      staleTime: Infinity,
      retry: false,
    })),
  });
  const instanceQueries = instances
    .flatMap((q) => Object.keys(q.data?.instance.mediaQueries ?? {}))
    .sort()
    .join('\n');
  const widgetQueries = useMemo(
    () => [
      ...new Set(
        [...Object.values(frame.shortCodes).map((c) => c.query), ...instanceQueries.split('\n')].filter(Boolean),
      ),
    ],
    [frame.shortCodes, instanceQueries],
  );
  const outline = settings.borderSize > 0 ? `${settings.borderSize}px dashed ${settings.borderColor}` : 'none';

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
        <Paper
          variant="outlined"
          sx={{
            minWidth: LEFT_PANEL_MIN_WIDTH,
            width: 360,
            flexShrink: 0,
            p: 2,
            overflow: 'auto',
            maxHeight: 'calc(100vh - 200px)',
          }}
          component="aside"
          aria-label={MSG.propertiesTitle}
        >
          <PropertyPanel
            domain={domain}
            portal={portal}
            language={language}
            widgetId={selected}
            query={editQuery}
            dirty={dirty}
            readOnly={!canWrite}
            onChange={onWidgetChange}
            onTranslationPreview={(key, value) => postTranslationUpdated(frame.frameRef.current, key, value, language)}
          />
          {dirtyItems(dirty).some((d) => d.error) && (
            <Stack spacing={1} sx={{ mt: 2 }}>
              {dirtyItems(dirty)
                .filter((d) => d.error)
                .map((d) => (
                  <Alert key={dirtyKey(d.type, d.id)} severity="error" data-testid="designer-dirty-error">
                    {d.id}: {d.error?.errorMessage}
                  </Alert>
                ))}
            </Stack>
          )}
        </Paper>
        <Box
          sx={{
            position: 'relative',
            flex: 1,
            minWidth: 0,
            overflow: 'auto',
            bgcolor: 'grey.100',
            border: 1,
            borderColor: 'divider',
          }}
          data-testid="designer-surface"
        >
          <Box
            sx={{
              position: 'relative',
              width: queryWidth ? `${queryWidth}px` : `${100 / scale}%`,
              height: `${100 / scale}%`,
              minHeight: `${(100 / scale) * 6}px`,
              transform: `scale(${scale})`,
              transformOrigin: 'top left',
              bgcolor: 'background.paper',
            }}
            data-testid="designer-scaled"
          >
            {frame.src && (
              <Box
                component="iframe"
                key={frame.src}
                ref={frame.frameRef}
                src={frame.src}
                title={MSG.frameTitle}
                sandbox={PREVIEW_SANDBOX}
                referrerPolicy="no-referrer"
                onLoad={frame.onFrameLoad}
                sx={{
                  border: 0,
                  width: '100%',
                  height: '100%',
                  display: 'block',
                  // A page that failed to open leaves no trace of the previous one behind the failure.
                  visibility: frame.overlay.phase === 'failed' ? 'hidden' : 'visible',
                }}
              />
            )}
            <Box sx={{ position: 'absolute', inset: 0, pointerEvents: 'none', overflow: 'hidden' }} aria-hidden>
              {frame.overlay.phase === 'ready' &&
                Object.values(frame.shortCodes).map((code) => (
                  <div
                    key={code.id}
                    data-widget-outline={code.id}
                    data-selected={code.id === selected || undefined}
                    data-dirty={dirty[dirtyKey('WIDGET', code.id)] ? true : undefined}
                    style={{
                      position: 'absolute',
                      left: code.rect.x,
                      top: code.rect.y,
                      width: code.rect.width,
                      height: code.rect.height,
                      boxSizing: 'border-box',
                      border:
                        code.id === selected && settings.borderSize > 0
                          ? `${settings.borderSize + 1}px solid ${settings.borderColor}`
                          : outline,
                    }}
                  />
                ))}
            </Box>
          </Box>
          {(frame.src || !frame.tokenError) && <ProgressOverlay state={frame.overlay} />}
          {frame.overlay.phase === 'missingParameters' && (
            <MissingParametersScreen
              key={frame.overlay.missing.pageId}
              missing={frame.overlay.missing}
              pageTitle={pageLabelOf(sitemap.data, frame.overlay.missing.pageId) ?? pageTitle}
              onSubmit={(params) =>
                frame.navigateWith(
                  frame.overlay.phase === 'missingParameters' ? frame.overlay.missing.pageId || pageId : pageId,
                  params,
                )
              }
            />
          )}
          {frame.overlay.phase === 'failed' && (
            <FailureOverlay
              error={frame.overlay.error}
              pageTitle={pageTitle}
              onRetry={frame.retry}
              onReset={() => {
                void queryClient.invalidateQueries({ queryKey: portalKeys.workspace(domain, portal) });
                frame.reset();
              }}
            />
          )}
        </Box>
      </Stack>
      <SettingsDialog
        open={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        portalJson={portalJson.data}
        widgetQueries={widgetQueries}
      />
      <NavigatePrompt
        open={blocker.state === 'blocked'}
        saving={saving}
        onSave={async () => {
          if (await save()) blocker.proceed?.();
          else blocker.reset?.();
        }}
        onContinue={() => {
          discard();
          blocker.proceed?.();
        }}
        onClose={() => blocker.reset?.()}
      />
    </PageFrame>
  );
}

const FRAME_EPOCH = 'designer-frame-epoch';
const frameEpochKey = (d: string, p: string) => [...portalKeys.workspace(d, p), FRAME_EPOCH] as const;

function pageLabelOf(root: Parameters<typeof findPage>[0], id: string): string | null {
  const p = id ? findPage(root, id) : null;
  return p ? pageLabel(p) : null;
}

export function NavigatePrompt({
  open,
  saving,
  onSave,
  onContinue,
  onClose,
}: {
  open: boolean;
  saving: boolean;
  onSave: () => void;
  onContinue: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={() => !saving && onClose()} maxWidth="xs" fullWidth>
      <DialogTitle>{MSG.navigateTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText>{MSG.navigatePrompt}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onContinue} disabled={saving}>
          {MSG.continue}
        </Button>
        <PendingButton pending={saving} onClick={onSave}>
          {MSG.save}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
