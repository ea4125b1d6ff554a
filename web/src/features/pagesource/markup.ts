/**
 * A page's markup balance (issue 22 item 5): source mode warns before writing a page whose tags
 * do not close in order. Void elements, self-closed tags, comments, doctype and the contents
 * of script, style and textarea are skipped; optional end tags (p, li, td…) are not required.
 */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Elements whose end tag HTML lets the author leave out. */
const OPTIONAL_END = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'option',
  'optgroup',
  'colgroup',
  'rt',
  'rp',
  'html',
  'head',
  'body',
]);
const RAW = /<(script|style|textarea)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const TAG = /<(\/?)([a-zA-Z][\w:-]*)((?:"[^"]*"|'[^']*'|[^'">])*?)(\/?)>/g;

export interface MarkupProblem {
  /** A closing tag with nothing open to close ('</p>'), or an element never closed ('<div>'). */
  kind: 'unexpected-close' | 'unclosed';
  tag: string;
  /** 1-based line of the tag. */
  line: number;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The first problem of `html`'s tag balance, or null when it is balanced. */
export function markupProblem(html: string): MarkupProblem | null {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  const text = html
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/<!doctype[^>]*>/gi, blank)
    .replace(RAW, blank);
  const open: { tag: string; index: number }[] = [];
  for (const m of text.matchAll(TAG)) {
    const [, closing, rawName, , selfClosing] = m;
    const tag = rawName.toLowerCase();
    if (VOID.has(tag) || selfClosing) continue;
    if (!closing) {
      open.push({ tag, index: m.index });
      continue;
    }
    const at = open.map((o) => o.tag).lastIndexOf(tag);
    if (at < 0) return { kind: 'unexpected-close', tag, line: lineAt(html, m.index) };
    // Elements left open inside it must be ones HTML closes implicitly.
    const skipped = open.slice(at + 1).find((o) => !OPTIONAL_END.has(o.tag));
    if (skipped) return { kind: 'unclosed', tag: skipped.tag, line: lineAt(html, skipped.index) };
    open.length = at;
  }
  const left = open.find((o) => !OPTIONAL_END.has(o.tag));
  return left ? { kind: 'unclosed', tag: left.tag, line: lineAt(html, left.index) } : null;
}
