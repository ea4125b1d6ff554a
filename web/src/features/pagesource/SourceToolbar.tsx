import CodeIcon from '@mui/icons-material/DesignServicesOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { PendingButton } from '../../ui/ConfirmDialog';
import { SelectField } from '../../ui/SelectField';
import { ACE_THEMES } from '../editors';
import { SOURCE_MESSAGES as MSG } from './messages';

/** Source mode's toolbar: Designer mode, the editor's theme and (with page:w) Save. */
export function SourceToolbar({
  theme,
  onTheme,
  onDesignerMode,
  canWrite,
  saving,
  dirty,
  onSave,
}: {
  theme: string;
  onTheme: (theme: string) => void;
  onDesignerMode: () => void;
  canWrite: boolean;
  saving: boolean;
  dirty: boolean;
  onSave: () => void;
}) {
  return (
    <Stack
      direction="row"
      spacing={2}
      useFlexGap
      role="toolbar"
      aria-label="Source mode"
      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
    >
      <Button variant="outlined" startIcon={<CodeIcon />} onClick={onDesignerMode}>
        {MSG.designerMode}
      </Button>
      <SelectField
        label="Theme"
        value={theme}
        onChange={onTheme}
        options={ACE_THEMES.map(([value, label]) => ({ value, label }))}
        sx={{ width: 240 }}
      />
      <Stack direction="row" sx={{ flex: 1, justifyContent: 'flex-end' }}>
        {canWrite && (
          <PendingButton pending={saving} disabled={!dirty} onClick={onSave}>
            Save
          </PendingButton>
        )}
      </Stack>
    </Stack>
  );
}
