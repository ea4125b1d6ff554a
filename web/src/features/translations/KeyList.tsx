/**
 * The key list of the translation manager: a virtualised listbox (only the rows in view are in the
 * DOM, so 5,000 keys stay fast). Each option is named by its whole key (shownKey: the product's
 * keys lower case, nested keys as written) and shows the label cut at 28 characters, the status
 * icon of the current language and, for a new key, the unsaved mark. Arrow keys, Home and End
 * move the selection; Enter opens the selected key's value editor (issue 31: keyboard alone).
 */
import CancelOutlinedIcon from '@mui/icons-material/CancelOutlined';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import FiberNewOutlinedIcon from '@mui/icons-material/FiberNewOutlined';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import PriorityHighIcon from '@mui/icons-material/PriorityHigh';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { Finding } from '../../api/readiness';
import { shownKey, type KeyStatus } from '../../api/translations';
import { FindingMark } from '../readiness';
import { TRANSLATION_MESSAGES } from './messages';
import { keyLabel, statusIcon, statusTooltip, type StatusIcon } from './model';

export const ROW_HEIGHT = 40;
export const LIST_HEIGHT = 480;
const OVERSCAN = 8;

export interface KeyListProps {
  keys: readonly string[];
  selected: string | null;
  onSelect: (key: string) => void;
  /** Enter on the selected key: its value is to be edited (the focus goes to its editor). */
  onOpen?: (key: string) => void;
  statusOf: (key: string) => KeyStatus | undefined;
  valueOf: (key: string) => string | undefined;
  isUnsaved: (key: string) => boolean;
  /** The key's readiness findings marked beside its status (placeholder, markup, length). */
  markedOf?: (key: string) => readonly Finding[];
}

export const optionId = (key: string) => `translation-key-${key}`;

export function KeyList({ keys, selected, onSelect, onOpen, statusOf, valueOf, isUnsaved, markedOf }: KeyListProps) {
  const [scrollTop, setScrollTop] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const start = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const end = Math.min(keys.length, Math.ceil((scrollTop + LIST_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const selectedIndex = selected === null ? -1 : keys.indexOf(selected);

  /** Scrolls the list so that row `target` is in view. */
  function reveal(target: number) {
    const el = box.current;
    if (!el) return;
    const top = target * ROW_HEIGHT;
    let next = el.scrollTop;
    if (top < el.scrollTop) next = top;
    else if (top + ROW_HEIGHT > el.scrollTop + LIST_HEIGHT) next = top + ROW_HEIGHT - LIST_HEIGHT;
    if (next !== el.scrollTop) {
      el.scrollTop = next;
      setScrollTop(next);
    }
  }

  function moveTo(index: number) {
    if (keys.length === 0) return;
    const target = Math.max(0, Math.min(keys.length - 1, index));
    onSelect(keys[target]);
    reveal(target);
  }

  // A key selected from outside (a link from the Readiness screen) is scrolled into view.
  const revealRef = useRef(reveal);
  revealRef.current = reveal;
  useEffect(() => {
    if (selectedIndex >= 0) revealRef.current(selectedIndex);
  }, [selectedIndex]);

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Enter' && selected !== null && selectedIndex >= 0) {
      e.preventDefault();
      onOpen?.(selected);
      return;
    }
    const moves: Record<string, number> = {
      ArrowDown: selectedIndex + 1,
      ArrowUp: selectedIndex - 1,
      Home: 0,
      End: keys.length - 1,
      PageDown: selectedIndex + Math.floor(LIST_HEIGHT / ROW_HEIGHT),
      PageUp: selectedIndex - Math.floor(LIST_HEIGHT / ROW_HEIGHT),
    };
    if (!(e.key in moves)) return;
    e.preventDefault();
    moveTo(moves[e.key]);
  }

  if (keys.length === 0)
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {TRANSLATION_MESSAGES.noKeys}
      </Typography>
    );

  return (
    <Box
      ref={box}
      role="listbox"
      aria-label="Translation keys"
      tabIndex={0}
      aria-activedescendant={selectedIndex >= start && selectedIndex < end ? optionId(keys[selectedIndex]) : undefined}
      onKeyDown={onKeyDown}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      sx={{
        height: LIST_HEIGHT,
        overflowY: 'auto',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        '&:focus-visible': { outline: 2, outlineColor: 'primary.main' },
      }}
    >
      <Box role="presentation" sx={{ height: keys.length * ROW_HEIGHT, position: 'relative' }}>
        {keys.slice(start, end).map((key, i) => {
          const index = start + i;
          const status = statusOf(key);
          const shown = shownKey(key);
          const isSelected = key === selected;
          return (
            <Box
              key={key}
              id={optionId(key)}
              role="option"
              aria-selected={isSelected}
              aria-label={shown}
              aria-setsize={keys.length}
              aria-posinset={index + 1}
              data-key={key}
              onClick={() => onSelect(key)}
              sx={{
                position: 'absolute',
                top: index * ROW_HEIGHT,
                left: 0,
                right: 0,
                height: ROW_HEIGHT,
                display: 'flex',
                alignItems: 'center',
                gap: 1,
                px: 1.5,
                cursor: 'pointer',
                bgcolor: isSelected ? 'action.selected' : undefined,
                '&:hover': { bgcolor: isSelected ? 'action.selected' : 'action.hover' },
              }}
            >
              {status && <StatusMark status={status} value={valueOf(key)} />}
              {markedOf && <FindingMark findings={markedOf(key)} />}
              <Typography noWrap title={shown} sx={{ flex: 1, fontFamily: 'monospace', fontSize: 14 }}>
                {keyLabel(key)}
              </Typography>
              {isUnsaved(key) && (
                <Tooltip title={TRANSLATION_MESSAGES.unsavedKey}>
                  <FiberNewOutlinedIcon
                    role="img"
                    aria-label={TRANSLATION_MESSAGES.unsavedKey}
                    aria-hidden={false}
                    fontSize="small"
                    color="warning"
                    data-icon="unsaved"
                  />
                </Tooltip>
              )}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

const ICONS: Record<
  StatusIcon,
  { icon: typeof CheckCircleOutlineIcon; color: 'success' | 'info' | 'error' | 'warning' }
> = {
  check: { icon: CheckCircleOutlineIcon, color: 'success' },
  question: { icon: HelpOutlineIcon, color: 'info' },
  cross: { icon: CancelOutlinedIcon, color: 'error' },
  exclamation: { icon: PriorityHighIcon, color: 'warning' },
};

/** The status icon of a key with its tooltip (also its accessible name). */
export function StatusMark({ status, value }: { status: KeyStatus; value: string | undefined }): ReactElement {
  const kind = statusIcon(status, value);
  const tooltip = statusTooltip(status);
  const { icon: Icon, color } = ICONS[kind];
  return (
    <Tooltip title={tooltip}>
      <Icon
        role="img"
        aria-label={tooltip}
        aria-hidden={false}
        fontSize="small"
        color={color}
        data-icon={kind}
        data-status={status.status}
      />
    </Tooltip>
  );
}
