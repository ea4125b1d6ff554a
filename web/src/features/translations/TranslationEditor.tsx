import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import type { Finding } from '../../api/readiness';
import { shownKey } from '../../api/translations';
import { languageLabel } from '../../lib/languages';
import { Loading } from '../../ui/Loading';
import { FindingsAlert } from '../readiness';
import { SPELL_CHECK_STORAGE_KEY, TRANSLATION_MESSAGES as MSG } from './messages';
import { ValueEditor } from './ValueEditor';
import { BlameButton, HistoryButton } from '../valuehistory';

function readSpellCheck(): boolean {
  try {
    return window.localStorage.getItem(SPELL_CHECK_STORAGE_KEY) !== 'false';
  } catch {
    return true;
  }
}

function storeSpellCheck(on: boolean) {
  try {
    window.localStorage.setItem(SPELL_CHECK_STORAGE_KEY, String(on));
  } catch {
    // storage unavailable: the choice lasts for this screen
  }
}

/** The editable field of a value editor: the rich text's textbox, else the text field. */
const VALUE_FIELD = '[contenteditable="true"], input:not([type="hidden"]), textarea:not([aria-hidden="true"])';

/**
 * Focuses the first `selector` in `box`, at once or as soon as it shows (the rich-text editor
 * loads lazily). Returns the function that stops waiting.
 */
function focusWhenShown(box: HTMLElement, selector: string): () => void {
  const focus = () => {
    const target = box.querySelector<HTMLElement>(selector);
    target?.focus();
    return !!target;
  };
  if (focus()) return () => undefined;
  const observer = new MutationObserver(() => {
    if (focus()) observer.disconnect();
  });
  observer.observe(box, { childList: true, subtree: true, attributes: true });
  return () => observer.disconnect();
}

/**
 * The translation manager's right side: the 'Current Language' heading, the selected key's editor
 * (rich text, image or link), for a non-default language the default-language value read-only
 * beside it, a spell-check checkbox (kept in localStorage), Save and Cancel.
 */
export function TranslationEditor({
  domain,
  portal,
  language,
  defaultLanguage,
  dir,
  defaultDir,
  translationKey: key,
  value,
  defaultValue,
  canWrite,
  busy,
  dirty,
  saving,
  onChange,
  onSave,
  onCancel,
  findings = [],
  focusRequest = 0,
}: {
  domain: string;
  portal: string;
  language: string;
  defaultLanguage: string;
  dir: 'ltr' | 'rtl';
  defaultDir: 'ltr' | 'rtl';
  /** The selected key (null: none). */
  translationKey: string | null;
  value: string;
  defaultValue: string;
  canWrite: boolean;
  /** A save or the task runner is running ('Please wait'). */
  busy: boolean;
  dirty: boolean;
  saving: boolean;
  onChange: (key: string, value: string) => void;
  onSave: () => void;
  onCancel: () => void;
  /** The selected key's readiness findings in this language (issue 29). */
  findings?: readonly Finding[];
  /** Raised (Enter on a key in the list): the focus goes into the value's editor. */
  focusRequest?: number;
}) {
  const [spellCheck, setSpellCheck] = useState(readSpellCheck);
  const isDefault = language === defaultLanguage;
  const valueBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = valueBox.current;
    if (!focusRequest || !box) return;
    return focusWhenShown(box, VALUE_FIELD);
  }, [focusRequest]);

  function setSpell(on: boolean) {
    setSpellCheck(on);
    storeSpellCheck(on);
  }

  return (
    <Card variant="outlined" sx={{ p: 2, flex: 1, minWidth: 0 }}>
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Box>
            <Typography variant="h6" component="h2">
              {MSG.currentLanguage}
            </Typography>
            <Typography color="text.secondary">
              {languageLabel(language)}
              {isDefault ? ' (default)' : ''}
            </Typography>
          </Box>
          <BlameButton
            d={domain}
            p={portal}
            of={{ kind: 'translation', lang: language }}
            name={languageLabel(language)}
          />
        </Stack>
        {busy && <Loading label={MSG.pleaseWait} />}
        {key ? (
          <>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {shownKey(key)}
              </Typography>
              <HistoryButton
                d={domain}
                p={portal}
                subject={{ kind: 'translation', key }}
                what={shownKey(key)}
                canRestore={canWrite}
              />
            </Stack>
            <FindingsAlert findings={findings} placed={false} />
            <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
              <Box ref={valueBox} sx={{ flex: 1, minWidth: 0 }}>
                <ValueEditor
                  // One editor per key and language: undo history never crosses keys.
                  key={`${language}/${key}`}
                  translationKey={key}
                  value={value}
                  onChange={canWrite ? (next) => onChange(key, next) : undefined}
                  readOnly={!canWrite}
                  dir={dir}
                  spellCheck={spellCheck}
                  label="Translation value"
                  domain={domain}
                  portal={portal}
                />
              </Box>
              {!isDefault && (
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
                    {`${MSG.defaultLanguageValue}: ${languageLabel(defaultLanguage)}`}
                  </Typography>
                  <ValueEditor
                    key={`${defaultLanguage}/${key}`}
                    translationKey={key}
                    value={defaultValue}
                    readOnly
                    dir={defaultDir}
                    label="Default language value"
                    domain={domain}
                    portal={portal}
                  />
                </Box>
              )}
            </Stack>
          </>
        ) : (
          <Typography color="text.secondary">{MSG.selectKey}</Typography>
        )}
        <FormControlLabel
          control={<Checkbox checked={spellCheck} onChange={(e) => setSpell(e.target.checked)} />}
          label="Spell check"
        />
        <Stack direction="row" spacing={1}>
          <Button variant="contained" disabled={!dirty || !canWrite || saving} onClick={onSave}>
            Save
          </Button>
          <Button disabled={!dirty || saving} onClick={onCancel}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    </Card>
  );
}
