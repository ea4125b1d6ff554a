import Box from '@mui/material/Box';
import type { SitemapPage } from '../../api/sitemap';
import { dirtyKey, type DirtyCache } from './dirty';
import { DESIGNER_MESSAGES as MSG } from './messages';
import { outlineBorder, pageLabelOf, surfaceSize } from './model';
import { FailureOverlay, MissingParametersScreen, ProgressOverlay } from './Overlays';
import { frameSandbox } from './protocol';
import { mediaQueryWidth, type DesignerSettings } from './settings';
import type { useDesignerFrame } from './useDesignerFrame';

/**
 * The design surface: the page in its sandboxed frame, scaled to the settings' size and media
 * query, the widgets' outlines over it, and the overlays (progress, missing parameters, failure).
 */
export function DesignerSurface({
  frame,
  settings,
  dirty,
  selected,
  sitemap,
  pageId,
  pageTitle,
  onReset,
}: {
  frame: ReturnType<typeof useDesignerFrame>;
  settings: DesignerSettings;
  dirty: DirtyCache;
  selected: string | null;
  sitemap: SitemapPage | undefined;
  pageId: string;
  pageTitle: string;
  /** Reset on the failure overlay: the workspace's views refresh and the frame starts again. */
  onReset: () => void;
}) {
  const size = surfaceSize(settings.scale, mediaQueryWidth(settings.mediaQuery));
  return (
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
          width: size.width,
          height: size.height,
          minHeight: size.minHeight,
          transform: `scale(${size.scale})`,
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
            sandbox={frameSandbox(frame.src, window.location.origin)}
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
                  border: outlineBorder(settings, code.id === selected),
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
          pageTitle={pageLabelOf(sitemap, frame.overlay.missing.pageId) ?? pageTitle}
          onSubmit={(params) =>
            frame.navigateWith(
              frame.overlay.phase === 'missingParameters' ? frame.overlay.missing.pageId || pageId : pageId,
              params,
            )
          }
        />
      )}
      {frame.overlay.phase === 'failed' && (
        <FailureOverlay error={frame.overlay.error} pageTitle={pageTitle} onRetry={frame.retry} onReset={onReset} />
      )}
    </Box>
  );
}
