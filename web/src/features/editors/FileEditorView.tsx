import { useRef, useState } from 'react';
import type { Asset } from '../../api/assets';
import { usePermission } from '../../core/usePermission';
import { useSelectionStore } from '../../core/selectionStore';
import type { FileEditorProps } from '../../core/registry';
import { AssetPicker } from '../assets';
import { JsonEditor } from './JsonEditor';
import type { AssetKind } from './LinkTextWidget';
import { SourceEditor } from './SourceEditor';

/**
 * A file of the File Explorer (features/assets) in its editor (…/file-explorer?path=…&edit=…): the JSON editor (saving
 * needs asset_create, spec 2 §6) with the asset picker behind its image and document fields, or
 * the source editor (code:r to read; Save needs code:w and an active portal, spec 2 §2, and the
 * save call's asset_create).
 */
export default function FileEditorView({ domain, portal, path, mode, onClose, pointer, line }: FileEditorProps) {
  const canEditAssets = usePermission('asset_create');
  const canWriteCode = usePermission('code:w');
  const canReadCode = usePermission('code:r');
  const portalActive = useSelectionStore((s) => s.portalInfo?.status?.toLowerCase() === 'active');
  const [picking, setPicking] = useState<AssetKind | null>(null);
  const resolvePick = useRef<((path: string | null) => void) | null>(null);

  const pickAsset = (kind: AssetKind) =>
    new Promise<string | null>((resolve) => {
      resolvePick.current = resolve;
      setPicking(kind);
    });
  const finishPick = (chosen: Asset | null) => {
    resolvePick.current?.(chosen ? chosen.path.replace(/^\//, '') : null);
    resolvePick.current = null;
    setPicking(null);
  };

  if (mode === 'source') {
    if (!canReadCode) return null;
    return (
      <SourceEditor
        domain={domain}
        portal={portal}
        path={path}
        canWrite={canWriteCode && canEditAssets && portalActive}
        onClose={onClose}
        line={line}
      />
    );
  }
  return (
    <>
      <JsonEditor
        domain={domain}
        portal={portal}
        path={path}
        readOnly={!canEditAssets}
        onClose={onClose}
        pickAsset={pickAsset}
        pointer={pointer}
        line={line}
      />
      {picking && (
        <AssetPicker
          domain={domain}
          portal={portal}
          variant={picking === 'image' ? 'image' : 'any'}
          onSelect={(assets) => finishPick(assets[0] ?? null)}
          onClose={() => finishPick(null)}
        />
      )}
    </>
  );
}
