/**
 * The page dialog of the Page Manager: Add page (title, id derived from the title, url, parent,
 * parameters, hidePage, status) and Edit page (the same fields of an existing page; its id
 * cannot change). The rules are the server's (spec 2 §5 "Pages"); its errors show in the dialog.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { Controller, useFieldArray, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { PAGE_STATUSES } from '../../api/pages';
import type { SitemapPage } from '../../api/sitemap';
import { FormDialog } from '../../ui/FormDialog';
import { field, requiredField } from '../../ui/schemas';
import { SelectField } from '../../ui/SelectField';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import {
  defaultPageUrl,
  idFromTitle,
  PAGE_MANAGER_MESSAGES as MSG,
  pageIdError,
  pageTitleError,
  pageUrlError,
  parameterNameError,
  parentOptions,
} from './model';

/** Spec 2 §9: 'other dialogs 815, 980 and 800 px wide'. */
export const PAGE_DIALOG_SIZE = { width: 815, minHeight: 300 } as const;

export interface PageFormValues {
  title: string;
  id: string;
  url: string;
  parentId: string;
  status: string;
  hidePage: boolean;
  parameters: { name: string; description: string; required: boolean }[];
}

const STATUS_LABELS: Record<string, string> = { PUBLISHED: 'Published', DRAFT: 'Draft' };

function schemaFor(mode: 'add' | 'edit', taken: ReadonlySet<string>) {
  return z
    .object({
      title: requiredField(pageTitleError),
      id: mode === 'add' ? requiredField((s) => pageIdError(s, taken)) : z.string(),
      url: requiredField(pageUrlError),
      parentId: z.string(),
      status: z.string(),
      hidePage: z.boolean(),
      parameters: z.array(
        z.object({
          name: requiredField(parameterNameError),
          description: field((s) => ([...s].length > 500 ? 'At most 500 characters.' : null)),
          required: z.boolean(),
        }),
      ),
    })
    .superRefine((values, ctx) => {
      const seen = new Set<string>();
      values.parameters.forEach((p, i) => {
        if (p.name && seen.has(p.name))
          ctx.addIssue({ code: 'custom', path: ['parameters', i, 'name'], message: MSG.parameterTwice(p.name) });
        seen.add(p.name);
      });
    }) as unknown as z.ZodType<PageFormValues, PageFormValues>;
}

export interface PageDialogProps {
  open: boolean;
  mode: 'add' | 'edit';
  root: SitemapPage | null | undefined;
  /** Add: the parent chosen first; edit: the page's parent. */
  parentId: string;
  /** Edit: the page. */
  page?: SitemapPage | null;
  /** Ids in use (add: the new id must be free). */
  taken: ReadonlySet<string>;
  /** Resolve to close; reject (useAction's submit) to show the server's error in the dialog. */
  onSubmit: (values: PageFormValues) => Promise<unknown>;
  onClose: () => void;
}

export function PageDialog({ open, mode, root, parentId, page, taken, onSubmit, onClose }: PageDialogProps) {
  const defaults: PageFormValues =
    mode === 'edit' && page
      ? {
          title: page.title ?? '',
          id: page.id,
          url: page.url ?? defaultPageUrl(page.id),
          parentId,
          status: page.status || 'PUBLISHED',
          hidePage: !!page.hidePage,
          parameters: (page.parameters ?? []).map((p) => ({
            name: p.name,
            description: p.description ?? '',
            required: !!p.required,
          })),
        }
      : { title: '', id: '', url: '', parentId, status: 'PUBLISHED', hidePage: false, parameters: [] };
  return (
    <FormDialog<PageFormValues>
      open={open}
      title={mode === 'add' ? 'Add page' : 'Edit page'}
      schema={schemaFor(mode, taken)}
      defaultValues={defaults}
      submitLabel={mode === 'add' ? 'Add' : 'Save'}
      size={PAGE_DIALOG_SIZE}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {(form) => <PageFields form={form} mode={mode} root={root} page={page} />}
    </FormDialog>
  );
}

function PageFields({
  form,
  mode,
  root,
  page,
}: {
  form: UseFormReturn<PageFormValues, unknown, PageFormValues>;
  mode: 'add' | 'edit';
  root: SitemapPage | null | undefined;
  page?: SitemapPage | null;
}) {
  const { control } = form;
  const params = useFieldArray({ control, name: 'parameters' });
  // Add: the id follows the title, and the url the id, until the user types their own.
  const autoId = useRef('');
  const autoUrl = useRef('');
  useEffect(() => {
    if (mode !== 'add') return;
    const sub = form.watch((values, { name }) => {
      if (name === 'title') {
        const id = form.getValues('id');
        if (id === autoId.current) {
          const next = idFromTitle(values.title ?? '');
          autoId.current = next;
          form.setValue('id', next, { shouldValidate: true, shouldDirty: true });
        }
      }
      if (name === 'title' || name === 'id') {
        const url = form.getValues('url');
        if (url === autoUrl.current) {
          const id = form.getValues('id');
          const next = id ? defaultPageUrl(id) : '';
          autoUrl.current = next;
          form.setValue('url', next, { shouldValidate: true, shouldDirty: true });
        }
      }
    });
    return () => sub.unsubscribe();
  }, [form, mode]);

  const parents = parentOptions(root, mode === 'edit' ? page?.id : undefined).map((o) => ({
    value: o.id,
    label: `${'\u2003'.repeat(o.depth)}${o.label}`,
  }));

  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <ValidatedTextField name="title" control={control} label="Title" required autoFocus />
        <ValidatedTextField
          name="id"
          control={control}
          label="Page id"
          required
          disabled={mode === 'edit'}
          helperText={mode === 'add' ? 'Derived from the title; names pages/<id>.html.' : 'The id cannot change.'}
        />
      </Stack>
      <ValidatedTextField name="url" control={control} label="URL" required showErrorsEarly={mode === 'edit'} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'center' }}>
        <Controller
          control={control}
          name="parentId"
          render={({ field: f }) => (
            <SelectField label="Parent page" value={f.value} onChange={f.onChange} options={parents} />
          )}
        />
        <Controller
          control={control}
          name="status"
          render={({ field: f }) => (
            <SelectField
              label="Status"
              value={f.value}
              onChange={f.onChange}
              options={PAGE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] ?? s }))}
            />
          )}
        />
        <Controller
          control={control}
          name="hidePage"
          render={({ field: f }) => (
            <FormControlLabel
              sx={{ flexShrink: 0 }}
              control={<Checkbox checked={f.value} onChange={(e) => f.onChange(e.target.checked)} />}
              label="Hide page"
            />
          )}
        />
      </Stack>
      <Box role="group" aria-label="Parameters">
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography variant="subtitle2" component="h3">
            Parameters
          </Typography>
          <Button
            size="small"
            startIcon={<AddIcon />}
            onClick={() => params.append({ name: '', description: '', required: true })}
          >
            Add parameter
          </Button>
        </Stack>
        {params.fields.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            No URL parameters.
          </Typography>
        )}
        {params.fields.map((row, i) => (
          <Stack key={row.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="parameter-row">
            <ValidatedTextField
              name={`parameters.${i}.name`}
              control={control}
              label={`Parameter ${i + 1} name`}
              required
            />
            <ValidatedTextField
              name={`parameters.${i}.description`}
              control={control}
              label={`Parameter ${i + 1} description`}
            />
            <Controller
              control={control}
              name={`parameters.${i}.required`}
              render={({ field: f }) => (
                <FormControlLabel
                  sx={{ flexShrink: 0, mt: 0.5 }}
                  control={
                    <Checkbox
                      checked={f.value}
                      onChange={(e) => f.onChange(e.target.checked)}
                      slotProps={{ input: { 'aria-label': `Parameter ${i + 1} required` } }}
                    />
                  }
                  label="Required"
                />
              )}
            />
            <IconButton aria-label={`Remove parameter ${i + 1}`} onClick={() => params.remove(i)} sx={{ mt: 0.5 }}>
              <DeleteIcon />
            </IconButton>
          </Stack>
        ))}
      </Box>
    </>
  );
}
