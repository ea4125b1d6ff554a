/**
 * The internal link fields (spec 2 §2 "internal link picker", §5 "Pages"): a page dropdown and one
 * input per URL parameter of the chosen page (required ones required, labelled by the parameter's
 * name, its description as helper text). Shared by the link manager's Internal tab and the
 * InternalLinkPicker field widget.
 */
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Id } from '../../../api/portal';
import type { PageParameter, SitemapPage } from '../../../api/sitemap';
import { Loading } from '../../../ui/Loading';
import { WIDGET_MESSAGES } from '../messages';
import { PageDropdown } from '../PageDropdown';
import { childrenOf, findPage, parametersOf } from '../sitemapTree';
import { useSitemap } from '../useSitemap';
import { internalLink, parseInternalLink, type InternalLink } from './linkType';

/** A parameter is required unless it says `required: false`. */
export const isRequiredParameter = (p: PageParameter) => p.required !== false;

/** Whether the link names a page and fills every required parameter of it. */
export function internalLinkComplete(root: SitemapPage | null | undefined, link: InternalLink): boolean {
  if (!link.pageId) return false;
  const page = findPage(root, link.pageId);
  return parametersOf(page)
    .filter(isRequiredParameter)
    .every((p) => (link.params[p.name] ?? '').trim() !== '');
}

export const EMPTY_INTERNAL_LINK: InternalLink = { pageId: '', params: {} };

export interface InternalLinkFieldsProps {
  root: SitemapPage | null | undefined;
  link: InternalLink;
  onChange: (link: InternalLink) => void;
  disabled?: boolean;
  loading?: boolean;
}

export function InternalLinkFields({ root, link, onChange, disabled, loading }: InternalLinkFieldsProps) {
  const [touched, setTouched] = useState<Set<string>>(new Set());
  if (loading && !root) return <Loading label="Loading the sitemap" />;
  if (!root || childrenOf(root).length === 0) {
    return <Typography color="text.secondary">{WIDGET_MESSAGES.emptySitemap}</Typography>;
  }
  const page = link.pageId ? findPage(root, link.pageId) : null;
  const parameters = parametersOf(page);
  return (
    <Stack spacing={2}>
      <PageDropdown
        root={root}
        value={link.pageId || null}
        includeHidden
        required
        disabled={disabled}
        onChange={(next) => {
          setTouched(new Set());
          // Values of parameters the new page also has are kept.
          const names = new Set(parametersOf(next).map((p) => p.name));
          const params = Object.fromEntries(Object.entries(link.params).filter(([name]) => names.has(name)));
          onChange({ pageId: next?.id ?? '', params });
        }}
      />
      {parameters.map((p) => {
        const required = isRequiredParameter(p);
        const value = link.params[p.name] ?? '';
        const missing = required && touched.has(p.name) && value.trim() === '';
        return (
          <TextField
            key={p.name}
            size="small"
            fullWidth
            label={p.name}
            required={required}
            value={value}
            disabled={disabled}
            error={missing}
            helperText={missing ? WIDGET_MESSAGES.parameterRequired(p.name) : p.description || ' '}
            onBlur={() => setTouched((t) => new Set(t).add(p.name))}
            onChange={(e) => {
              setTouched((t) => new Set(t).add(p.name));
              onChange({ ...link, params: { ...link.params, [p.name]: e.target.value } });
            }}
          />
        );
      })}
    </Stack>
  );
}

export interface InternalLinkPickerProps {
  domainId: Id;
  portalId: Id;
  /** The internal link ('#/page?name=value'), '' for none. */
  value: string;
  /** The new link, and whether it is complete (a page and every required parameter). */
  onChange: (value: string, complete: boolean) => void;
  disabled?: boolean;
}

/** The internal link field widget: pages from the workspace sitemap plus their URL parameters. */
export function InternalLinkPicker({ domainId, portalId, value, onChange, disabled }: InternalLinkPickerProps) {
  const sitemap = useSitemap(domainId, portalId);
  const [link, setLink] = useState<InternalLink>(() => parseInternalLink(value) ?? EMPTY_INTERNAL_LINK);
  if (sitemap.isError) return <Typography color="error">{WIDGET_MESSAGES.sitemapFailed}</Typography>;
  return (
    <InternalLinkFields
      root={sitemap.data}
      loading={sitemap.isPending}
      link={link}
      disabled={disabled}
      onChange={(next) => {
        setLink(next);
        onChange(next.pageId ? internalLink(next) : '', internalLinkComplete(sitemap.data, next));
      }}
    />
  );
}
