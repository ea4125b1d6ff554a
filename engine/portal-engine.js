/*!
 * Portalwright portal engine v1 (portal format v1). Contract: docs/portal-format.md, engine/README.md.
 * Plain ES2020, no build, no dependencies; fetches relative to the document. Route #/<pageId>?a=1;
 * query ?lang= ?v= ?designMode=1&parentOrigin=<designer origin>. Markup: data-pw-widget, data-pw-t,
 * data-pw-t-<attr>, data-pw-param. Events: window 'pw-engine'. Design mode: JSON {type, payload} with
 * window.parent at parentOrigin only. In Node nothing starts (module.exports, globalThis.PortalEngine).
 */
((root, factory) => {
  'use strict';
  const api = factory(root);
  if (typeof module === 'object' && module && module.exports) module.exports = api;
  root.PortalEngine = api;
  if (typeof window !== 'undefined' && typeof document !== 'undefined') api.autoStart();
})(globalThis, (root) => {
'use strict';

const VERSION = '1.0.0';
const START_TIMEOUT_MS = 15000;
const WAIT_MS = Object.freeze({ master: 150, page: 100 });
const MASTER_PAGE = 'master-page';
const FULL_SIZE = 'Full Size';
const ERROR_CODES = Object.freeze(Object.fromEntries(['TIMED_OUT', 'FAILED_TO_INIT_IFAPI', 'FAILED_TO_INIT_ENGINE',
  'MISSING_ENGINE', 'MISSING_PARAMETERS', 'UNKNOWN_ERROR'].map((c) => [c, c])));
const EDITOR_TYPES = ['TextInput', 'RichTextInput', 'CheckBox', 'ColorInput', 'DropDown',
  'AssetManager', 'LinkManager', 'PageSelector', 'TranslationSelector', 'JsonEditor', 'SubEditor'];

// --- pure helpers (tested in Node)

const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };
const escapeHtml = (v) => (v == null ? '' : String(v).replace(/[&<>"'`]/g, (c) => ESC[c]));

const NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n', nbsp: ' ' };
const decodeEntities = (s) => String(s).replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (m, e) => {
  if (e[0] !== '#') return NAMED[e.toLowerCase()] ?? m;
  const n = /x/i.test(e[1]) ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
  return n > 0 && n < 0x110000 ? String.fromCodePoint(n) : '';
});

// isUnsafeUrl: javascript:, vbscript: and non-image data: URLs, however encoded or spaced.
function isUnsafeUrl(value) {
  const v = decodeEntities(value).replace(/[\u0000-\u0020\u007f-\u00a0\u200b-\u200f\ufeff]/g, '').toLowerCase();
  return /^(javascript|vbscript|livescript):/.test(v) || (/^data:/.test(v) && !/^data:image\/(png|jpe?g|gif|webp);/.test(v));
}
function safeUrl(value) {
  if (value && typeof value === 'object' && 'value' in value) value = value.value; // {type, value} link
  if (value == null) return '';
  return isUnsafeUrl(value) ? '#' : String(value);
}
const safeColor = (v) => (/^[#a-zA-Z0-9(),.%\s-]{1,64}$/.test(String(v ?? '').trim()) ? String(v).trim() : '');

// sanitizeHtml drops script/style/iframe/object (and kin) with content, comments, on* attributes,
// script URLs, CSS expressions; escapes a '<' that opens no tag. String based (same in Node).
const DROP_WITH_CONTENT = /^(script|style|iframe|object|embed|applet|frame|frameset|noscript|noembed|template|xmp|plaintext|title|textarea|select|svg|math)$/;
const DROP_TAG = /^(base|link|meta|param|form|input|button)$/;
const TAG_RE = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s"'>\/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const ATTR_RE = /([^\s"'>\/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
function sanitizeHtml(html) {
  const s = html == null ? '' : String(html);
  let out = '';
  let i = 0;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    if (lt < 0) { out += s.slice(i); break; }
    out += s.slice(i, lt);
    i = lt;
    if (s.startsWith('<!--', i)) {
      const end = s.indexOf('-->', i + 4);
      i = end < 0 ? s.length : end + 3;
      continue;
    }
    TAG_RE.lastIndex = i;
    const m = TAG_RE.exec(s);
    if (!m) { out += '&lt;'; i += 1; continue; }
    i = TAG_RE.lastIndex;
    const [, closing, rawName, attrs, selfClosing] = m;
    const name = rawName.toLowerCase();
    if (DROP_WITH_CONTENT.test(name)) {
      if (!closing && !selfClosing) {
        const close = new RegExp('</' + name + '\\s*>', 'ig');
        close.lastIndex = i;
        i = close.exec(s) ? close.lastIndex : s.length;
      }
      continue;
    }
    if (DROP_TAG.test(name)) continue;
    out += closing ? '</' + name + '>' : '<' + name + sanitizeAttributes(attrs) + (selfClosing ? ' />' : '>');
  }
  return out;
}
function sanitizeAttributes(src) {
  let out = '';
  for (const [, rawName, raw] of String(src || '').matchAll(ATTR_RE)) {
    const name = rawName.toLowerCase();
    if (/^on/.test(name) || name === 'srcdoc' || name === 'formaction') continue;
    if (raw === undefined) { out += ' ' + name; continue; }
    const inner = raw[0] === '"' || raw[0] === "'" ? raw.slice(1, -1) : raw;
    const decoded = decodeEntities(inner);
    if (isUnsafeUrl(decoded) || /javascript:|vbscript:/i.test(decoded.replace(/\s+/g, ''))) continue;
    if (name === 'style' && /expression\s*\(|behavior\s*:|-moz-binding/i.test(decoded)) continue;
    out += ' ' + name + '="' + inner.replace(/"/g, '&quot;') + '"';
  }
  return out;
}

const isRtl = (lang) => /^(ar|he|iw|fa|ur|ps|yi|dv|ckb|sd|ug)([_-]|$)/i.test(String(lang || ''));

const decode = (s) => { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch (e) { return s; } };
function parseQuery(query) {
  const params = {};
  for (const pair of String(query || '').replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    params[decode(eq < 0 ? pair : pair.slice(0, eq))] = eq < 0 ? '' : decode(pair.slice(eq + 1));
  }
  return params;
}
function parseRoute(hash) {
  const h = String(hash || '').replace(/^#/, '');
  if (h && h[0] !== '/' && h[0] !== '?') return { pageId: '', params: {}, segments: [] }; // '#anchor'
  const q = h.indexOf('?');
  const segments = (q < 0 ? h : h.slice(0, q)).split('/').filter(Boolean).map((p) => decode(p));
  return { pageId: segments[0] || '', params: parseQuery(q < 0 ? '' : h.slice(q + 1)), segments };
}
function buildRoute(pageId, params) {
  const qs = Object.entries(params || {}).map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v)).join('&');
  return '#/' + encodeURIComponent(pageId) + (qs ? '?' + qs : '');
}
function pickLanguage(search, settings) {
  const ls = settings?.languageSettings || settings || {};
  const langs = ls.languages || [];
  const wanted = parseQuery(search).lang;
  return wanted && langs.includes(wanted) ? wanted : ls.defaultLanguage || langs[0] || 'en_GB';
}

function flattenSitemap(pages, out = []) {
  for (const p of Array.isArray(pages) ? pages : pages?.pages || []) {
    out.push(p);
    if (p.children?.length) flattenSitemap(p.children, out);
  }
  return out;
}
const findPage = (sitemap, id) => flattenSitemap(sitemap).find((p) => p.id === id) || null;
const defaultPage = (sitemap) => flattenSitemap(sitemap).find((p) => !p.hidePage && p.status !== 'DRAFT') || null;
const pageUrl = (page) => String(page.url || page.pageUrl || 'pages/' + page.id + '.html').replace(/^\/+/, '');
// pageParameters: [{name, description, value, required}]; missingParameters: required, no value.
const pageParameters = (page, params = {}) => (page?.parameters || []).map((p) => ({
  name: p.name, description: p.description || '', value: String(params[p.name] ?? ''), required: !!p.required }));
const missingParameters = (page, params) => pageParameters(page, params).filter((p) => p.required && !p.value.trim());
// parentOrigin: ?parentOrigin= when it is exactly an http(s) origin, else ''.
function parentOrigin(search) {
  const v = parseQuery(search).parentOrigin;
  try { return /^https?:\/\//.test(v) && new URL(v).origin === v ? v : ''; } catch (e) { return ''; }
}

// resolveData: the instance data with the overrides of every matching media query applied in order.
function resolveData(instance, matches) {
  const data = { ...(instance?.data || {}) };
  for (const [q, over] of Object.entries(instance?.mediaQueries || {})) if (matches?.(q)) Object.assign(data, over);
  return data;
}

// --- template rendering

const TOKEN_RE = /\{\{\s*(#each|#if|\/each|\/if|else)?\s*([\w.@$-]*)\s*\}\}/g;
function parseTemplate(src) {
  src = String(src || '');
  const top = { t: 'root', body: [] };
  const stack = [top];
  let cur = top.body;
  let last = 0;
  for (const m of src.matchAll(TOKEN_RE)) {
    if (m.index > last) cur.push({ t: 'text', v: src.slice(last, m.index) });
    last = m.index + m[0].length;
    const [, kw, path] = m;
    if (kw === '#each' || kw === '#if') {
      const node = { t: kw.slice(1), path, body: [], alt: [] };
      cur.push(node);
      stack.push(node);
      cur = node.body;
    } else if (kw === 'else') {
      const open = stack[stack.length - 1];
      if (open.t !== 'if') throw new Error('{{else}} outside {{#if}}');
      cur = open.alt;
    } else if (kw) {
      const open = stack.pop();
      if (open.t !== kw.slice(1)) throw new Error('unbalanced {{' + kw + '}}');
      cur = stack[stack.length - 1].body;
    } else if (path) cur.push({ t: 'var', path });
  }
  if (stack.length !== 1) throw new Error('unclosed {{#' + stack[stack.length - 1].t + '}}');
  if (last < src.length) cur.push({ t: 'text', v: src.slice(last) });
  return top.body;
}

// renderTemplate(template, data, {properties, translate}) → HTML (see formatValue).
function renderTemplate(template, data, options = {}) {
  const ast = typeof template === 'string' ? parseTemplate(template) : template;
  return renderNodes(ast, { data: data || {}, props: options.properties || [], parent: null }, options);
}
function renderNodes(nodes, scope, options) {
  let out = '';
  for (const n of nodes) {
    if (n.t === 'text') out += n.v;
    else if (n.t === 'var') out += formatValue(lookup(scope, n.path), options);
    else if (n.t === 'if') out += renderNodes(truthy(lookup(scope, n.path).value) ? n.body : n.alt, scope, options);
    else {
      const { value, prop } = lookup(scope, n.path);
      if (Array.isArray(value)) value.forEach((item, index) => {
        out += renderNodes(n.body, { data: item, props: prop?.properties || [], index, parent: scope }, options);
      });
    }
  }
  return out;
}
function lookup(scope, path) {
  if (path === 'this' || path === '.') return { value: scope.data };
  if (path === '@index') return { value: scope.index };
  const parts = path.split('.');
  for (let s = scope; s; s = s.parent) {
    if (s.data === null || typeof s.data !== 'object' || !(parts[0] in s.data)) continue;
    let v = s.data;
    for (const p of parts) v = v == null ? v : v[p];
    return { value: v, prop: s.props.find((p) => p.name === parts[0]) };
  }
  return { value: undefined };
}
const truthy = (v) => (Array.isArray(v) ? v.length > 0 : !!v && v !== 'false');
function formatValue({ value: v, prop }, options) {
  if (v == null) return '';
  switch (prop?.editor) {
    case 'RichTextInput': return sanitizeHtml(v);
    case 'AssetManager': case 'LinkManager': return escapeHtml(safeUrl(v));
    case 'ColorInput': return escapeHtml(safeColor(v));
    case 'TranslationSelector': {
      const t = options.translate ? options.translate(String(v)) : v;
      return escapeHtml(/^(IMG|LNK)_/i.test(v) ? safeUrl(t) : t);
    }
    default: return escapeHtml(typeof v === 'object' ? JSON.stringify(v) : v);
  }
}

// --- browser runtime

const bootHooks = [];

class Engine {
  // hooks: run in 'Running Bootstrap Sequence'; a throw is FAILED_TO_INIT_IFAPI.
  constructor(win, doc, hooks = bootHooks) {
    Object.assign(this, { win, doc, hooks, seq: 0, cache: {}, widgets: {}, translations: {}, queries: {} });
    const q = parseQuery(win.location.search);
    this.designMode = q.designMode === '1' || q.designMode === 'true';
    this.version = q.v || '';
    this.parentOrigin = this.designMode ? parentOrigin(win.location.search) : '';
    if (this.designMode && !this.parentOrigin) {
      (win.console || console).warn('portal-engine: designMode without a valid parentOrigin: messaging is off');
    }
  }

  fetchText(path, fresh) {
    if (!fresh && this.cache[path]) return this.cache[path];
    const u = new URL(path, this.doc.baseURI);
    if (this.version) u.searchParams.set('v', this.version);
    const p = this.win.fetch(u.href, { cache: this.designMode ? 'no-store' : 'default' }).then((r) => {
      if (r.ok) return r.text();
      throw Object.assign(new Error('Could not load ' + path + ' (HTTP ' + r.status + ')'), { httpStatus: r.status, path });
    });
    p.catch(() => { if (this.cache[path] === p) delete this.cache[path]; });
    return (this.cache[path] = p);
  }
  async fetchJson(path, fresh) {
    const text = await this.fetchText(path, fresh);
    try { return JSON.parse(text); } catch (e) { throw Object.assign(new Error(path + ' is not valid JSON: ' + e.message), { path }); }
  }

  emit(detail) {
    this.win.dispatchEvent(new this.win.CustomEvent('pw-engine', { detail }));
    this.post('engineEvent', detail);
  }
  step(step, progress, pageId) {
    if (progress === 100) this.settle();
    this.emit({ step, progress, pageId });
    if (progress === 100) this.shortCodes(); // the complete set follows each 100
  }
  settle() { this.done = true; this.win.clearTimeout(this.timer); }
  fail(errorCode, errorMessage, extra) {
    this.settle();
    const error = { errorCode, errorTitle: 'Failed to open page', errorMessage, httpStatus: 0, data: null, ...extra };
    this.emit({ error });
    const outlet = this.outlet();
    if (outlet && !this.designMode) outlet.innerHTML = '<p class="pw-error" role="alert">' + escapeHtml(errorMessage) + '</p>';
    return false;
  }
  post(type, payload) {
    const parent = this.win.parent;
    if (this.parentOrigin && parent && parent !== this.win) parent.postMessage(JSON.stringify({ type, payload }), this.parentOrigin);
  }
  shortCodes() {
    for (const [id, { el, instance, query }] of Object.entries(this.widgets)) {
      const r = el.isConnected && el.getBoundingClientRect();
      if (r) this.post('registerShortCode', { id, type: instance.type, query, rect: { x: r.left, y: r.top, width: r.width, height: r.height } });
    }
  }
  outlet() { return this.doc.querySelector('[data-pw-outlet]'); }
  matches() { return (q) => !!this.win.matchMedia?.(q).matches; }
  t(key) { return this.translations[String(key).toUpperCase()] ?? key; }
  sleep(ms) { return new Promise((r) => this.win.setTimeout(r, ms)); }
  alive(s) { if (s !== this.seq) throw new Error('superseded'); }

  // start: first load (spec 2 §4); a newer start or route supersedes a running one.
  async start() {
    const s = ++this.seq;
    this.loaded = this.done = false;
    this.win.clearTimeout(this.timer);
    this.timer = this.win.setTimeout(() => {
      if (this.done) return;
      this.seq++;
      this.fail(ERROR_CODES.TIMED_OUT, 'The page did not open within ' + START_TIMEOUT_MS + ' ms.');
    }, START_TIMEOUT_MS);
    this.bind(); // first, so that refreshVersion can retry a failed start
    let code = ERROR_CODES.FAILED_TO_INIT_ENGINE;
    try {
      this.step('Parsing Master Page', 5);
      if (!this.outlet()) throw new Error('The master page has no [data-pw-outlet] element.');
      this.step('Loading Master Page', 10);
      [this.settings, this.sitemap] = await Promise.all([this.fetchJson('portal.json', true), this.fetchJson('sitemap.json', true)]);
      this.alive(s);
      this.step('Running Bootstrap Sequence', 15);
      code = ERROR_CODES.FAILED_TO_INIT_IFAPI;
      for (const hook of this.hooks) await hook(this);
      this.alive(s);
      code = ERROR_CODES.FAILED_TO_INIT_ENGINE;
      this.step('Setting Language', 20);
      await this.setLanguage(pickLanguage(this.win.location.search, this.settings));
      this.alive(s);
      this.step('Preparing To Render', 22);
      await this.renderWidgets(this.doc.body, true);
      await this.sleep(WAIT_MS.master);
      this.alive(s);
    } catch (e) {
      return s === this.seq && this.fail(code, e.message, { httpStatus: e.httpStatus || 0, data: e.path || null });
    }
    this.loaded = true;
    return this.route(s);
  }

  async setLanguage(lang) {
    const ls = this.settings?.languageSettings || {};
    this.language = lang;
    this.doc.documentElement.setAttribute('lang', String(lang).replace('_', '-'));
    this.doc.documentElement.setAttribute('dir', isRtl(lang) ? 'rtl' : 'ltr');
    this.translations = {};
    if (ls.languageMode && ls.languageMode !== 'TRANSLATION') return;
    const base = (ls.translationsBasePath || 'translations').replace(/\/+$/, '');
    try {
      const t = await this.fetchJson(base + '/' + lang + '.json', true);
      for (const [k, v] of Object.entries(t)) this.translations[k.toUpperCase()] = v;
    } catch (e) {
      this.emit({ warning: 'Failed to load language ' + lang + ': ' + e.message });
    }
  }

  applyTranslations(scope) {
    const els = [...(scope.matches?.('[data-pw-t]') ? [scope] : []), ...scope.querySelectorAll('*')];
    for (const el of els) {
      for (const a of [...el.attributes]) {
        if (a.name !== 'data-pw-t' && !a.name.startsWith('data-pw-t-')) continue;
        const key = a.value.toUpperCase();
        const val = this.translations[key];
        if (val === undefined) continue;
        if (a.name !== 'data-pw-t') {
          const attr = a.name.slice(10);
          if (!/^on/i.test(attr)) el.setAttribute(attr, /^(href|src|action|poster)$/.test(attr) ? safeUrl(val) : val);
        } else if (key.startsWith('IMG_')) el.setAttribute('src', safeUrl(val));
        else if (key.startsWith('LNK_')) el.setAttribute('href', safeUrl(val));
        else if (/[<&]/.test(val)) el.innerHTML = sanitizeHtml(val);
        else el.textContent = val;
      }
    }
  }

  async loadWidgetType(type) {
    if (!/^\w[\w-]*$/.test(type || '')) throw new Error('Bad widget type ' + type);
    const base = 'widgets/modules/' + type + '/';
    const [config, template] = await Promise.all([this.fetchJson(base + 'config.probe.json'), this.fetchText(base + 'template.html')]);
    return { config, ast: parseTemplate(template) };
  }
  async renderWidget(el, instance) {
    const id = el.getAttribute('data-pw-widget');
    try {
      const inst = instance || await this.fetchJson('widgets/database/' + id + '.json', this.designMode);
      const { config, ast } = await this.loadWidgetType(inst.type);
      const mq = Object.keys(inst.mediaQueries || {});
      mq.forEach((q) => this.watchQuery(q));
      this.widgets[id] = { instance: inst, el, query: mq.filter(this.matches()).pop() || FULL_SIZE };
      el.setAttribute('data-pw-widget-type', inst.type);
      el.removeAttribute('data-pw-widget-error');
      el.innerHTML = renderTemplate(ast, resolveData(inst, this.matches()), {
        properties: config.properties, translate: (k) => this.t(k),
      });
      this.applyTranslations(el);
    } catch (e) {
      el.setAttribute('data-pw-widget-error', e.message);
      el.innerHTML = this.designMode ? '<p class="pw-widget-error">' + escapeHtml(id + ': ' + e.message) + '</p>' : '';
      this.emit({ warning: 'Widget ' + id + ': ' + e.message });
    }
  }
  async renderWidgets(scope, outsideOutlet) {
    const outlet = this.outlet();
    const els = [...scope.querySelectorAll('[data-pw-widget]')].filter((el) => !outsideOutlet || !outlet.contains(el));
    await Promise.all(els.map((el) => this.renderWidget(el)));
    this.applyTranslations(scope);
  }
  async rerenderAll() {
    await Promise.all(Object.values(this.widgets).map((w) => (w.el.isConnected ? this.renderWidget(w.el, w.instance) : null)));
    this.shortCodes();
  }
  watchQuery(q) {
    if (this.queries[q] || !this.win.matchMedia) return;
    this.queries[q] = this.win.matchMedia(q);
    this.queries[q].addEventListener?.('change', () => this.rerenderAll());
  }

  // route: parameter validation, 100 ms wait, page injection (all a later page change does).
  async route(s) {
    if (s === undefined) {
      if (!this.loaded) return false;
      s = ++this.seq;
    }
    const r = parseRoute(this.win.location.hash);
    const outlet = this.outlet();
    if (r.pageId === MASTER_PAGE) {
      outlet.innerHTML = '';
      this.current = { pageId: MASTER_PAGE, params: r.params };
      this.step('Preparing To Render', 100, MASTER_PAGE);
      return true;
    }
    const page = r.pageId ? findPage(this.sitemap, r.pageId) : defaultPage(this.sitemap);
    if (!page || (page.status === 'DRAFT' && !this.designMode)) {
      return this.fail(ERROR_CODES.UNKNOWN_ERROR, 'Page not found: ' + (r.pageId || '(none)'), { httpStatus: 404, data: { pageId: r.pageId } });
    }
    const missing = missingParameters(page, r.params);
    if (missing.length) {
      return this.fail(ERROR_CODES.MISSING_PARAMETERS, 'Required parameters are missing: ' + missing.map((p) => p.name).join(', '), {
        data: { pageId: page.id, title: page.title, missing, parameters: pageParameters(page, r.params) },
      });
    }
    this.current = { pageId: page.id, params: r.params, page };
    try {
      await this.sleep(WAIT_MS.page);
      this.alive(s);
      this.step('Updating Route', 25, page.id);
      this.step('Loading Page', 33, page.id);
      const html = await this.fetchText(pageUrl(page), this.designMode);
      this.alive(s);
      this.step('Parsing Page', 50, page.id);
      outlet.innerHTML = html;
      for (const el of outlet.querySelectorAll('[data-pw-param]')) el.textContent = r.params[el.getAttribute('data-pw-param')] ?? '';
      if (page.title) this.doc.title = page.title;
      for (const a of this.doc.querySelectorAll('a[href^="#/"]')) {
        if (parseRoute(a.getAttribute('href')).pageId === page.id) a.setAttribute('aria-current', 'page');
        else a.removeAttribute('aria-current');
      }
      await this.renderWidgets(outlet, false);
      this.alive(s);
      this.step('Preparing To Render', 100, page.id);
      return true;
    } catch (e) {
      return s === this.seq && this.fail(ERROR_CODES.UNKNOWN_ERROR, e.message, { httpStatus: e.httpStatus || 0, data: { pageId: page.id, path: pageUrl(page) } });
    }
  }

  bind() {
    if (this.bound) return;
    this.bound = true;
    const on = (type, fn, capture) => this.win.addEventListener(type, fn, capture);
    on('hashchange', () => {
      const h = this.win.location.hash;
      if (!h || h === '#' || h.startsWith('#/')) this.route(); // '#section' anchors are not routes
    });
    if (!this.parentOrigin) return;
    this.doc.addEventListener('click', (ev) => {
      const el = ev.target?.closest?.('[data-pw-widget]');
      if (!el) return;
      ev.preventDefault();
      this.post('shortCodeClicked', { id: el.getAttribute('data-pw-widget'), type: el.getAttribute('data-pw-widget-type') });
    }, true);
    on('message', (ev) => {
      if (ev.source !== this.win.parent || ev.origin !== this.parentOrigin) return;
      let msg = ev.data;
      try { if (typeof msg === 'string') msg = JSON.parse(msg); } catch (e) { return; }
      if (msg?.type) this.onMessage(msg.type, msg.payload || {});
    });
    const later = () => { this.win.clearTimeout(this.rt); this.rt = this.win.setTimeout(() => this.shortCodes(), 100); };
    on('resize', later);
    on('scroll', later, true);
  }
  async onMessage(type, p) {
    if (type === 'dataChanged') {
      const w = this.widgets[p.id];
      const el = w?.el.isConnected ? w.el : [...this.doc.querySelectorAll('[data-pw-widget]')].find((e) => e.getAttribute('data-pw-widget') === p.id);
      if (!el) return;
      // p.data: an instance {type, data, mediaQueries?} or a data object without type; none: refetch
      const d = p.data && typeof p.data === 'object' ? p.data : null;
      await this.renderWidget(el, d && (d.type ? d : { ...w?.instance, data: d }));
      this.shortCodes();
    } else if (type === 'refreshVersion') {
      this.version = String(p.version || Date.now());
      this.cache = {};
      this.widgets = {};
      await this.start();
    } else if (type === 'translation_updated') {
      if (p.language && p.language !== this.language) return;
      if (p.key) this.translations[String(p.key).toUpperCase()] = p.value;
      this.applyTranslations(this.doc);
      await this.rerenderAll();
    } else if (type === 'navigate') {
      const h = buildRoute(p.pageId || '', p.params);
      if (this.win.location.hash === h) await this.route();
      else this.win.location.hash = h;
    }
  }
}

let engine = null;
function start() {
  if (!engine) {
    engine = new Engine(root.window || root, root.document);
    engine.start();
  }
  return engine;
}
function autoStart() {
  const doc = root.document;
  if (doc.currentScript?.hasAttribute('data-pw-manual')) return;
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', () => start());
  else start();
}

return {
  VERSION, FORMAT_VERSION: 1, ERROR_CODES, EDITOR_TYPES, START_TIMEOUT_MS, WAIT_MS, MASTER_PAGE,
  escapeHtml, decodeEntities, isUnsafeUrl, safeUrl, safeColor, sanitizeHtml, isRtl,
  parseRoute, parseQuery, buildRoute, pickLanguage, flattenSitemap, findPage, defaultPage, pageUrl,
  pageParameters, missingParameters, parentOrigin, resolveData, parseTemplate, renderTemplate,
  Engine, start, autoStart, bootstrap: (fn) => void bootHooks.push(fn),
};
});
