// A tiny DOM, window and clock for portal-engine.test.mjs (just what the engine touches).
// Not a test file itself (the name matches no test pattern).

const VOID = new Set(['img', 'br', 'hr', 'input', 'meta', 'link', 'source', 'area', 'col', 'embed', 'wbr']);
const ATTR_RE = /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const TOKEN_RE = /<!--[\s\S]*?-->|<\/([a-zA-Z][\w-]*)\s*>|<([a-zA-Z][\w-]*)((?:\s+[^\s"'>\/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>|[^<]+|</g;
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export class Target {
  constructor() { this.listeners = {}; }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  removeEventListener(type, fn) { this.listeners[type] = (this.listeners[type] || []).filter((f) => f !== fn); }
  dispatchEvent(ev) {
    if (!ev.target) ev.target = this;
    for (const fn of [...(this.listeners[ev.type] || [])]) fn(ev);
    return !ev.defaultPrevented;
  }
  listenerCount(type) { return (this.listeners[type] || []).length; }
}

class Text {
  constructor(data, raw) { this.data = data; this.raw = raw; this.parentNode = null; }
}

let rectSeq = 0;
export class Element extends Target {
  constructor(tag, doc) {
    super();
    this.localName = tag.toLowerCase();
    this.tagName = tag.toUpperCase();
    this.attrs = new Map();
    this.childNodes = [];
    this.parentNode = null;
    this.ownerDocument = doc;
    this.rect = { left: 10, top: 20 + rectSeq++, width: 300, height: 40 };
  }
  get attributes() { return [...this.attrs].map(([name, value]) => ({ name, value })); }
  getAttribute(n) { return this.attrs.has(n) ? this.attrs.get(n) : null; }
  setAttribute(n, v) { this.attrs.set(n.toLowerCase(), String(v)); }
  removeAttribute(n) { this.attrs.delete(n); }
  hasAttribute(n) { return this.attrs.has(n); }
  get children() { return this.childNodes.filter((n) => n instanceof Element); }
  appendChild(n) { n.parentNode = this; this.childNodes.push(n); return n; }
  get textContent() { return this.childNodes.map((n) => (n instanceof Element ? n.textContent : n.data)).join(''); }
  set textContent(v) { this.childNodes = []; if (String(v) !== '') this.appendChild(new Text(String(v), false)); }
  get innerHTML() { return this.childNodes.map(serialize).join(''); }
  set innerHTML(html) { this.childNodes = []; parseInto(this, String(html)); }
  get outerHTML() { return serialize(this); }
  descendants() {
    const out = [];
    const walk = (e) => { for (const c of e.children) { out.push(c); walk(c); } };
    walk(this);
    return out;
  }
  querySelectorAll(sel) { return this.descendants().filter((e) => e.matches(sel)); }
  querySelector(sel) { return this.querySelectorAll(sel)[0] || null; }
  matches(sel) { return sel.split(',').some((s) => matchSimple(this, s.trim())); }
  closest(sel) {
    for (let e = this; e instanceof Element; e = e.parentNode) if (e.matches(sel)) return e;
    return null;
  }
  contains(n) {
    for (let e = n; e; e = e.parentNode) if (e === this) return true;
    return false;
  }
  get isConnected() {
    let e = this;
    while (e.parentNode) e = e.parentNode;
    return e === this.ownerDocument;
  }
  getBoundingClientRect() { return { ...this.rect, x: this.rect.left, y: this.rect.top }; }
  // click: a bubbling event through the tree and the document (capture listeners on the document first).
  click() {
    const ev = { type: 'click', target: this, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    this.ownerDocument.dispatchEvent(ev);
    return ev;
  }
}

function matchSimple(el, sel) {
  const m = /^([a-zA-Z*]*)((?:\[[^\]]+\])*)$/.exec(sel);
  if (!m) throw new Error('fake-dom: unsupported selector ' + sel);
  if (m[1] && m[1] !== '*' && m[1].toLowerCase() !== el.localName) return false;
  for (const [, name, op, val] of m[2].matchAll(/\[([\w-]+)(?:(\^?=)"([^"]*)")?\]/g)) {
    const v = el.getAttribute(name);
    if (v === null) return false;
    if (op === '=' && v !== val) return false;
    if (op === '^=' && !v.startsWith(val)) return false;
  }
  return true;
}

function serialize(n) {
  if (n instanceof Text) return n.raw ? n.data : esc(n.data);
  const attrs = n.attributes.map((a) => ' ' + a.name + '="' + a.value.replace(/"/g, '&quot;') + '"').join('');
  if (VOID.has(n.localName)) return '<' + n.localName + attrs + '>';
  return '<' + n.localName + attrs + '>' + n.innerHTML + '</' + n.localName + '>';
}

function parseInto(root, html) {
  const doc = root.ownerDocument || root;
  const stack = [root];
  for (const m of html.matchAll(TOKEN_RE)) {
    const top = stack[stack.length - 1];
    const [tok, close, open, attrs, selfClose] = m;
    if (tok.startsWith('<!--')) continue;
    if (close) {
      const i = stack.map((e) => e.localName).lastIndexOf(close.toLowerCase());
      if (i > 0) stack.length = i;
    } else if (open) {
      const el = new Element(open, doc);
      for (const a of (attrs || '').matchAll(ATTR_RE)) el.setAttribute(a[1], a[2] ?? a[3] ?? a[4] ?? '');
      top.appendChild(el);
      if (!selfClose && !VOID.has(el.localName)) stack.push(el);
    } else top.appendChild(new Text(tok, true));
  }
}

export class Document extends Target {
  constructor(url, bodyHtml) {
    super();
    this.baseURI = url;
    this.URL = url;
    this.readyState = 'complete';
    this.title = '';
    this.childNodes = [];
    this.documentElement = new Element('html', this);
    this.documentElement.parentNode = this;
    this.documentElement.innerHTML = '<head></head><body>' + bodyHtml + '</body>';
    this.body = this.documentElement.querySelector('body');
  }
  querySelectorAll(sel) { return [this.documentElement, ...this.documentElement.descendants()].filter((e) => e.matches(sel)); }
  querySelector(sel) { return this.querySelectorAll(sel)[0] || null; }
  dispatchEvent(ev) {
    // capture on the document, then bubble from the target up to the document
    super.dispatchEvent(ev);
    for (let e = ev.target; e instanceof Element; e = e.parentNode) e.dispatchEvent(ev);
    return !ev.defaultPrevented;
  }
}

export class Clock {
  constructor() { this.now = 0; this.timers = []; this.seq = 0; }
  setTimeout = (fn, ms = 0) => { const id = ++this.seq; this.timers.push({ id, t: this.now + ms, fn }); return id; };
  clearTimeout = (id) => { this.timers = this.timers.filter((t) => t.id !== id); };
  async flush() { for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r)); }
  // advance: run every timer due within ms, in time order, letting promises settle in between.
  async advance(ms = 0) {
    const end = this.now + ms;
    await this.flush();
    for (;;) {
      const due = this.timers.filter((t) => t.t <= end).sort((a, b) => a.t - b.t || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.now = due.t;
      due.fn();
      await this.flush();
    }
    this.now = end;
  }
}

export class Parent {
  constructor() { this.posted = []; }
  postMessage(msg, targetOrigin) { this.posted.push({ ...JSON.parse(msg), targetOrigin }); }
  of(type) { return this.posted.filter((m) => m.type === type); }
}

// new Window({url, body, files, clock, parent, media}): files maps a path (relative to the
// document's folder) to a string, an object (JSON) or a function returning a response promise.
export class Window extends Target {
  constructor({ url, body, files, clock, parent, media }) {
    super();
    const u = new URL(url);
    this.clock = clock;
    this.files = files;
    this.fetched = [];
    this.warnings = [];
    this.console = { warn: (m) => this.warnings.push(m) };
    this.media = media || new Set();
    this.mediaLists = {};
    this.parent = parent || this;
    this.setTimeout = clock.setTimeout;
    this.clearTimeout = clock.clearTimeout;
    this.CustomEvent = class { constructor(type, init) { this.type = type; this.detail = init?.detail; } };
    this.document = new Document(u.href.replace(/#.*$/, ''), body);
    const win = this;
    let hash = u.hash;
    this.location = {
      origin: 'null', // an opaque origin: the engine must never use it
      search: u.search,
      get hash() { return hash; },
      set hash(h) {
        const next = h && !String(h).startsWith('#') ? '#' + h : String(h);
        if (next === hash) return;
        hash = next;
        clock.setTimeout(() => win.dispatchEvent({ type: 'hashchange' }), 0);
      },
    };
  }
  matchMedia(q) {
    const win = this;
    if (!this.mediaLists[q]) {
      this.mediaLists[q] = Object.defineProperty(new Target(), 'matches', { get: () => win.media.has(q) });
      this.mediaLists[q].media = q;
    }
    return this.mediaLists[q];
  }
  // setMedia: turn a query on or off and fire its 'change'.
  setMedia(q, on) {
    if (on) this.media.add(q); else this.media.delete(q);
    this.mediaLists[q]?.dispatchEvent({ type: 'change' });
  }
  fetch(url, init) {
    this.fetched.push({ url: String(url), init });
    const base = this.document.baseURI.replace(/[^/]*$/, '');
    const path = String(url).startsWith(base) ? String(url).slice(base.length).replace(/\?.*$/, '') : null;
    const f = path === null ? undefined : this.files[path];
    if (typeof f === 'function') return f();
    if (f === undefined) return Promise.resolve({ ok: false, status: 404, text: async () => 'not found' });
    const body = typeof f === 'string' ? f : JSON.stringify(f);
    return Promise.resolve({ ok: true, status: 200, text: async () => body });
  }
}
