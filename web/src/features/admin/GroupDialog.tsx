import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { permissionKeys, permissionsApi } from '../../api/permissions';
import { FormDialog } from '../../ui/FormDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { alphanumericNameError, groupPermissions, permissionLabel } from './validation';

interface Props {
  open: boolean;
  /** Editing an existing group: its name is fixed. */
  group?: { groupName: string; permissions: string[] };
  /** Sends the group; resolve closes the dialog, reject shows the error in it (useAction's submit). */
  onSubmit: (groupName: string, permissions: string[]) => Promise<unknown>;
  onClose: () => void;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * Create a permission group or edit its permissions: checkboxes from
 * GET /permissions/catalogue, grouped by resource prefix.
 */
export function GroupDialog({ open, group, onSubmit, onClose }: Props) {
  const catalogue = useQuery({
    queryKey: permissionKeys.catalogue,
    queryFn: permissionsApi.catalogue,
    staleTime: Infinity,
    enabled: open,
  });
  const schema = z.object({ groupName: z.string(), permissions: z.array(z.string()) }).superRefine((values, ctx) => {
    const nameError = group ? undefined : alphanumericNameError(values.groupName);
    if (nameError) ctx.addIssue({ code: 'custom', path: ['groupName'], message: nameError });
    if (group && sameSet(values.permissions, group.permissions)) {
      ctx.addIssue({ code: 'custom', path: ['permissions'], message: '' });
    }
  });
  return (
    <FormDialog
      open={open}
      title={group ? `Edit Permissions: ${group.groupName}` : 'Create Group'}
      schema={schema}
      defaultValues={{ groupName: group?.groupName ?? '', permissions: group?.permissions ?? [] }}
      submitLabel={group ? 'Save' : 'Create'}
      submitDisabled={!catalogue.isSuccess}
      maxWidth="md"
      onSubmit={(values) => {
        const order = catalogue.data ?? [];
        const permissions = [...values.permissions].sort((a, b) => order.indexOf(a) - order.indexOf(b));
        return onSubmit(group ? group.groupName : values.groupName.trim(), permissions);
      }}
      onClose={onClose}
    >
      {(form) => (
        <>
          {!group && (
            <ValidatedTextField name="groupName" control={form.control} label="Group name" required autoFocus />
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
            <Controller
              name="permissions"
              control={form.control}
              render={({ field }) => (
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
                            label={permissionLabel(permission)}
                            title={permission}
                            control={
                              <Checkbox
                                size="small"
                                checked={field.value.includes(permission)}
                                onChange={(e) =>
                                  field.onChange(
                                    e.target.checked
                                      ? [...field.value, permission]
                                      : field.value.filter((p: string) => p !== permission),
                                  )
                                }
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
            />
          )}
        </>
      )}
    </FormDialog>
  );
}
