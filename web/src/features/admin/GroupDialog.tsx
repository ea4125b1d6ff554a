import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { adminApi, adminKeys } from './api';
import { LoadError, Loading } from './AdminPage';
import { alphanumericNameError, groupPermissions } from './validation';

interface Props {
  open: boolean;
  /** Editing an existing group: its name is fixed. */
  group?: { groupName: string; permissions: string[] };
  busy: boolean;
  onSubmit: (groupName: string, permissions: string[]) => void;
  onClose: () => void;
}

/**
 * Create a permission group or edit its permissions: checkboxes from
 * GET /permissions/catalogue, grouped by resource prefix.
 */
export function GroupDialog(props: Props) {
  return (
    <Dialog open={props.open} onClose={() => !props.busy && props.onClose()} fullWidth maxWidth="md">
      {props.open && <GroupForm {...props} />}
    </Dialog>
  );
}

function GroupForm({ group, busy, onSubmit, onClose }: Props) {
  const catalogue = useQuery({ queryKey: adminKeys.catalogue, queryFn: adminApi.catalogue, staleTime: Infinity });
  const [name, setName] = useState(group?.groupName ?? '');
  const [touched, setTouched] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(() => new Set(group?.permissions ?? []));
  const nameError = group ? undefined : alphanumericNameError(name);
  const unchanged =
    !!group &&
    selected.size === group.permissions.length &&
    group.permissions.every((permission) => selected.has(permission));

  function toggle(permission: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(permission);
      else next.delete(permission);
      return next;
    });
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (nameError || unchanged || busy) return;
    const order = catalogue.data ?? [];
    const permissions = [...selected].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    onSubmit(group ? group.groupName : name.trim(), permissions);
  }

  return (
    <form noValidate onSubmit={handleSubmit}>
      <DialogTitle>{group ? `Edit Permissions: ${group.groupName}` : 'Create Group'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {!group && (
            <TextField
              label="Group name"
              required
              autoFocus
              size="small"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setTouched(true);
              }}
              onBlur={() => setTouched(true)}
              error={touched && !!nameError}
              helperText={(touched && nameError) || ' '}
              fullWidth
            />
          )}
          {catalogue.isPending && <Loading label="Loading permissions" />}
          {catalogue.isError && (
            <LoadError
              title="Could not load the permissions"
              error={catalogue.error}
              onRetry={() => void catalogue.refetch()}
            />
          )}
          {catalogue.isSuccess && (
            <Box
              sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 2 }}
              role="group"
              aria-label="Permissions"
            >
              {groupPermissions(catalogue.data).map(([resource, permissions]) => (
                <Box key={resource} role="group" aria-labelledby={`perm-${resource}`}>
                  <Typography id={`perm-${resource}`} variant="subtitle2" sx={{ textTransform: 'capitalize' }}>
                    {resource}
                  </Typography>
                  <FormGroup>
                    {permissions.map((permission) => (
                      <FormControlLabel
                        key={permission}
                        label={permission}
                        control={
                          <Checkbox
                            size="small"
                            checked={selected.has(permission)}
                            onChange={(e) => toggle(permission, e.target.checked)}
                          />
                        }
                        slotProps={{ typography: { variant: 'body2' } }}
                      />
                    ))}
                  </FormGroup>
                </Box>
              ))}
            </Box>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={!!nameError || unchanged || busy || !catalogue.isSuccess}>
          {group ? 'Save' : 'Create'}
        </Button>
      </DialogActions>
    </form>
  );
}
