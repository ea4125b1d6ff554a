import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SitemapPage } from '../../../api/sitemap';
import { WIDGET_MESSAGES } from '../messages';
import { PageDropdown } from '../PageDropdown';
import { childrenOf } from '../sitemapTree';
import { validateExternalUrl } from './linkType';
import type { ExternalState } from './model';

/** The External tab: the URL (the spec's rule), and with Captcha the captcha and error pages. */
export function ExternalLinkFields({
  external,
  onChange,
  urlTouched,
  onUrlTouched,
  root,
  loading,
  readOnly,
}: {
  external: ExternalState;
  onChange: (patch: Partial<ExternalState>) => void;
  /** The URL was edited or left (its error shows from then on; kept while other tabs are shown). */
  urlTouched: boolean;
  onUrlTouched: () => void;
  root: SitemapPage | undefined;
  loading: boolean;
  readOnly: boolean;
}) {
  const urlError = validateExternalUrl(external.url);
  const sitemapEmpty = !!root && childrenOf(root).length === 0;
  return (
    <Stack spacing={2}>
      <TextField
        size="small"
        fullWidth
        label="URL"
        type="url"
        required
        value={external.url}
        disabled={readOnly}
        error={urlTouched && !!urlError}
        helperText={(urlTouched && urlError) || ' '}
        onBlur={onUrlTouched}
        onChange={(e) => {
          onUrlTouched();
          onChange({ url: e.target.value });
        }}
      />
      <FormControlLabel
        control={<Checkbox checked={external.captcha} onChange={(e) => onChange({ captcha: e.target.checked })} />}
        label="Captcha"
      />
      {external.captcha &&
        !urlError &&
        (sitemapEmpty ? (
          <Typography color="text.secondary">{WIDGET_MESSAGES.emptySitemap}</Typography>
        ) : (
          <>
            <PageDropdown
              root={root}
              label="Captcha page"
              includeHidden
              required
              disabled={readOnly}
              loading={loading}
              value={external.captchaPageId || null}
              onChange={(page) => onChange({ captchaPageId: page?.id ?? '' })}
            />
            <PageDropdown
              root={root}
              label="Error page"
              includeHidden
              required
              disabled={readOnly}
              loading={loading}
              value={external.errorPageId || null}
              onChange={(page) => onChange({ errorPageId: page?.id ?? '' })}
            />
          </>
        ))}
    </Stack>
  );
}
