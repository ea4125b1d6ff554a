/**
 * The header's portal search (spec 2 §2 "Search", §8, §9; spec 3 §2): a 480 px box left of the
 * header actions, hidden without a portal, in limited or universal portals and without page read
 * permission. Typing searches the workspace 500 ms after the last key; the results drop down
 * below the box as a listbox (labels at most 43 characters, the full text in their tooltip). An
 * empty box says 'Please type something in the search box to search in the selected portal.',
 * no result 'No Items found'; a failure shows the 'Failed to search …' danger toast. Choosing a
 * result opens it (searchResults.hitTarget).
 *
 * Keyboard: the box is a combobox (ArrowDown/ArrowUp move through the results, Enter opens the
 * highlighted one, Escape closes the list); Ctrl/Cmd+K focuses it from anywhere (app/shortcuts).
 */
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import InputBase from '@mui/material/InputBase';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { toApiError } from '../../api/errors';
import type { NavPortal } from '../../core/menus';
import { usePermission } from '../../core/usePermission';
import { useShortcut } from '../../core/shortcuts';
import { FOCUS_RING } from '../../ui/theme';
import { useSelectionStore } from '../../core/selectionStore';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../core/toastService';
import { searchApi, searchKeys, type SearchHit } from './searchApi';
import {
  hitFullText,
  hitLabel,
  hitSource,
  hitTarget,
  isSearchVisible,
  SEARCH_BOX_WIDTH,
  SEARCH_BOX_WIDTH_LG,
  SEARCH_BOX_WIDTH_MD,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MESSAGES,
} from './searchResults';

/** The results keep the spec's 480 px where the screen has room, even under a narrower box. */
const dropdownWidth = (box: HTMLElement | null) =>
  Math.max(box?.offsetWidth ?? 0, Math.min(SEARCH_BOX_WIDTH, window.innerWidth - 16));

export function HeaderSearch() {
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const branch = useSelectionStore((s) => s.branch);
  const language = useSelectionStore((s) => s.language);
  const canReadPages = usePermission('page_read');
  const canReadTranslations = usePermission('translation:r');
  const canReadFiles = usePermission(['asset:r', 'code:r']);
  if (!domain || !portal || !branch || !language || !isSearchVisible(portal, canReadPages)) return null;
  return (
    <SearchBox
      key={`${domain.id}/${portal.id}`}
      domainId={domain.id}
      portal={portal}
      branch={branch}
      language={language}
      canReadTranslations={canReadTranslations}
      canReadFiles={canReadFiles}
    />
  );
}

export default HeaderSearch;

interface SearchBoxProps {
  domainId: string | number;
  portal: NavPortal;
  branch: string;
  language: string;
  canReadTranslations: boolean;
  canReadFiles: boolean;
}

function SearchBox({ domainId, portal, branch, language, canReadTranslations, canReadFiles }: SearchBoxProps) {
  const navigate = useNavigate();
  const id = useId();
  const listId = `${id}-results`;
  const dropdownId = `${id}-dropdown`;
  const anchor = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useShortcut('search', () => {
    input.current?.focus();
    input.current?.select();
  });
  const [text, setText] = useState('');
  const [phrase, setPhrase] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  // 500 ms after the last key (spec 2 §9).
  useEffect(() => {
    const timer = setTimeout(() => setPhrase(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  useEffect(() => setActive(-1), [phrase]);
  useEffect(() => {
    if (active >= 0) document.getElementById(`${id}-option-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, id]);

  const query = useQuery({
    queryKey: searchKeys.search(domainId, portal.id, phrase),
    queryFn: async () => {
      try {
        return await searchApi.search(domainId, portal.id, phrase);
      } catch (cause) {
        const error = toApiError(cause);
        toasts.danger(error.errorMessage, SEARCH_MESSAGES.failed(phrase), {
          timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
          closeButton: true,
        });
        throw cause;
      }
    },
    enabled: phrase !== '',
    retry: false,
  });

  const typed = text.trim();
  const settled = typed !== '' && typed === phrase;
  const hits: SearchHit[] = settled && query.data ? query.data.results : [];
  const searching = typed !== '' && (!settled || query.isFetching);

  const choose = (hit: SearchHit) => {
    setOpen(false);
    void navigate(hitTarget(hit, { domainId, portal, branch, language, canReadTranslations, canReadFiles }));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      if (hits.length) setActive((i) => (i + 1) % hits.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (hits.length) setActive((i) => (i <= 0 ? hits.length - 1 : i - 1));
    } else if (event.key === 'Enter') {
      const hit = hits[active] ?? (hits.length === 1 ? hits[0] : undefined);
      if (open && hit) {
        event.preventDefault();
        choose(hit);
      }
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
      }
    }
  };

  let message: string | null = null;
  if (typed === '') message = SEARCH_MESSAGES.empty;
  else if (settled && query.isSuccess && hits.length === 0) message = SEARCH_MESSAGES.none;
  else if (settled && query.isError) message = SEARCH_MESSAGES.failed(phrase);

  const optionId = (i: number) => `${id}-option-${i}`;

  return (
    <ClickAwayListener onClickAway={() => setOpen(false)}>
      <Box
        ref={anchor}
        data-testid="header-search-box"
        // The spec's 480 px where the header has room for it; narrower on smaller screens so the
        // breadcrumbs stay readable (issue 22), and the whole second header row on a phone.
        sx={{
          width: { xs: 'auto', md: SEARCH_BOX_WIDTH_MD, lg: SEARCH_BOX_WIDTH_LG, xl: SEARCH_BOX_WIDTH },
          flex: { xs: '1 1 120px', md: '0 1 auto' },
          maxWidth: '100%',
          minWidth: { xs: 120, md: 200 },
        }}
      >
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: 1.5,
            height: 40,
            borderRadius: 1,
            border: 1,
            borderColor: open ? 'primary.main' : 'divider',
            bgcolor: 'background.paper',
            '&:focus-within': FOCUS_RING,
          }}
        >
          <SearchIcon fontSize="small" color="action" aria-hidden />
          <InputBase
            inputRef={input}
            fullWidth
            value={text}
            placeholder="Search pages, widgets and translations"
            onChange={(e) => {
              setText(e.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onClick={() => setOpen(true)}
            onKeyDown={onKeyDown}
            inputProps={{
              role: 'combobox',
              'aria-label': SEARCH_MESSAGES.label,
              'aria-autocomplete': 'list',
              'aria-expanded': open,
              'aria-controls': open ? dropdownId : undefined,
              'aria-activedescendant': open && active >= 0 && hits[active] ? optionId(active) : undefined,
              'data-testid': 'header-search',
              maxLength: 200,
            }}
          />
        </Box>
        <Popper
          open={open}
          anchorEl={anchor.current}
          placement="bottom-start"
          disablePortal
          sx={{ zIndex: (t) => t.zIndex.modal, width: dropdownWidth(anchor.current) }}
        >
          <Paper
            id={dropdownId}
            elevation={6}
            sx={{ mt: 0.5, maxHeight: 480, overflowY: 'auto' }}
            data-testid="header-search-dropdown"
          >
            {searching && <LinearProgress aria-label={SEARCH_MESSAGES.searching} />}
            {message && (
              <Typography role="status" variant="body2" color="text.secondary" sx={{ px: 2, py: 1.5 }}>
                {message}
              </Typography>
            )}
            {hits.length > 0 && (
              <Box
                component="ul"
                role="listbox"
                id={listId}
                aria-label={SEARCH_MESSAGES.results}
                sx={{ listStyle: 'none', m: 0, p: 0.5 }}
              >
                {hits.map((hit, i) => (
                  <Box
                    component="li"
                    role="option"
                    key={`${hit.type}-${hit.path}-${hit.line ?? 0}-${hit.key ?? ''}-${i}`}
                    id={optionId(i)}
                    aria-selected={i === active}
                    tabIndex={-1}
                    title={hitFullText(hit)}
                    data-hit-type={hit.type}
                    onMouseDown={(e) => e.preventDefault()}
                    onMouseEnter={() => setActive(i)}
                    onClick={() => choose(hit)}
                    sx={{
                      px: 1.5,
                      py: 0.75,
                      borderRadius: 1,
                      cursor: 'pointer',
                      bgcolor: i === active ? 'action.hover' : undefined,
                    }}
                  >
                    <Typography variant="body2" noWrap>
                      {hitLabel(hit)}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" noWrap component="div">
                      {hitSource(hit)}
                    </Typography>
                  </Box>
                ))}
              </Box>
            )}
            {settled && query.data?.truncated && (
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 2, pb: 1 }}>
                {SEARCH_MESSAGES.truncated}
              </Typography>
            )}
          </Paper>
        </Popper>
      </Box>
    </ClickAwayListener>
  );
}
