// Run: node --test engine/   (Node 20+, built-ins only)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Clock, Parent, Window as FakeWindow } from './fake-dom.mjs';

const require = createRequire(import.meta.url);
const PE = require('./portal-engine.js');

test('loads in Node without starting and exposes globalThis.PortalEngine', () => {
  assert.equal(globalThis.PortalEngine, PE);
  assert.equal(PE.FORMAT_VERSION, 1);
  assert.deepEqual(Object.keys(PE.ERROR_CODES).sort(),
    ['FAILED_TO_INIT_ENGINE', 'FAILED_TO_INIT_IFAPI', 'MISSING_ENGINE', 'MISSING_PARAMETERS', 'TIMED_OUT', 'UNKNOWN_ERROR']);
  assert.equal(PE.START_TIMEOUT_MS, 15000);
  assert.deepEqual(PE.WAIT_MS, { master: 150, page: 100 });
});

test('engine stays small', () => {
  const size = readFileSync(new URL('./portal-engine.js', import.meta.url)).length;
  assert.ok(size < 25 * 1024, `portal-engine.js is ${size} bytes`);
});

test('escapeHtml', () => {
  assert.equal(PE.escapeHtml(`<a href="x" title='y'>&\``), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;');
  assert.equal(PE.escapeHtml(null), '');
  assert.equal(PE.escapeHtml(undefined), '');
  assert.equal(PE.escapeHtml(0), '0');
});

test('renderTemplate: placeholders are escaped, paths and missing values', () => {
  const out = PE.renderTemplate('<h1>{{title}}</h1><p>{{ meta.author }}</p><i>{{nothing}}</i>',
    { title: '<b>Hi</b>', meta: { author: 'A & B' } });
  assert.equal(out, '<h1>&lt;b&gt;Hi&lt;/b&gt;</h1><p>A &amp; B</p><i></i>');
});

test('renderTemplate: each, this, @index, parent lookup, nested each', () => {
  const tpl = '<ul>{{#each items}}<li data-i="{{@index}}">{{label}} ({{unit}}){{#each tags}}[{{this}}]{{/each}}</li>{{/each}}</ul>';
  const out = PE.renderTemplate(tpl, { unit: 'kg', items: [{ label: 'a', tags: ['x', '<y>'] }, { label: 'b' }] });
  assert.equal(out, '<ul><li data-i="0">a (kg)[x][&lt;y&gt;]</li><li data-i="1">b (kg)</li></ul>');
  assert.equal(PE.renderTemplate('{{#each missing}}x{{/each}}', {}), '');
});

test('renderTemplate: if / else', () => {
  const tpl = '{{#if show}}yes{{else}}no{{/if}}';
  assert.equal(PE.renderTemplate(tpl, { show: true }), 'yes');
  assert.equal(PE.renderTemplate(tpl, { show: false }), 'no');
  assert.equal(PE.renderTemplate(tpl, { show: 'false' }), 'no');
  assert.equal(PE.renderTemplate(tpl, { show: [] }), 'no');
  assert.equal(PE.renderTemplate(tpl, {}), 'no');
});

test('renderTemplate: unbalanced blocks are errors', () => {
  assert.throws(() => PE.parseTemplate('{{#each a}}x'), /unclosed/);
  assert.throws(() => PE.parseTemplate('{{#each a}}x{{/if}}'), /unbalanced/);
  assert.throws(() => PE.parseTemplate('{{else}}'), /outside/);
});

test('renderTemplate: editor types decide how values are written', () => {
  const properties = [
    { name: 'body', editor: 'RichTextInput' },
    { name: 'link', editor: 'LinkManager' },
    { name: 'image', editor: 'AssetManager' },
    { name: 'colour', editor: 'ColorInput' },
    { name: 'caption', editor: 'TranslationSelector' },
    { name: 'cards', editor: 'SubEditor', properties: [{ name: 'text', editor: 'RichTextInput' }, { name: 'href', editor: 'LinkManager' }] },
  ];
  const data = {
    body: '<p onclick="x()">Hi <script>alert(1)</script><b>there</b></p>',
    link: 'javascript:alert(1)',
    image: 'assets/img/a.png',
    colour: 'red;background:url(x)',
    caption: 'TXT_CAPTION',
    cards: [{ text: '<em>ok</em><iframe src="x"></iframe>', href: { type: 'External', value: 'https://example.org/?a=1&b=2' } }],
  };
  const tpl = '{{body}}|<a href="{{link}}">|<img src="{{image}}">|{{colour}}|{{caption}}|{{#each cards}}{{text}}<a href="{{href}}">{{/each}}';
  const out = PE.renderTemplate(tpl, data, { properties, translate: (k) => (k === 'TXT_CAPTION' ? 'Caption <1>' : k) });
  assert.equal(out, '<p>Hi <b>there</b></p>|<a href="#">|<img src="assets/img/a.png">||Caption &lt;1&gt;|<em>ok</em><a href="https://example.org/?a=1&amp;b=2">');
});

test('sanitizeHtml removes dangerous elements, handlers and URLs', () => {
  const cases = [
    ['<p>ok</p>', '<p>ok</p>'],
    ['<b>a</b><script>alert(1)</script><i>b</i>', '<b>a</b><i>b</i>'],
    ['<STYLE>body{}</STYLE>x', 'x'],
    ['<iframe src="https://evil"></iframe>y', 'y'],
    ['<object data="x"><param name="a"></object>z', 'z'],
    ['<img src="a.png" onerror="alert(1)" alt="A">', '<img src="a.png" alt="A">'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" JaVa&#x09;ScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="https://ok.example/?a=1&amp;b=2" target="_blank">x</a>', '<a href="https://ok.example/?a=1&amp;b=2" target="_blank">x</a>'],
    ['<img src="data:text/html;base64,AAAA">', '<img>'],
    ['<img src="data:image/png;base64,AAAA">', '<img src="data:image/png;base64,AAAA">'],
    ['<div style="width:expression(alert(1))">x</div>', '<div>x</div>'],
    ['<svg onload="alert(1)"><circle/></svg>after', 'after'],
    ['<svg/onload=alert(1)>', '&lt;svg/onload=alert(1)>'],
    ['<scr<script>ipt>alert(1)</script>', '&lt;scr'],
    ['a < b and <!-- comment --> c', 'a &lt; b and  c'],
    ['<script>never closed', ''],
    ['<p title=\'x "y"\'>t</p>', '<p title="x &quot;y&quot;">t</p>'],
    ['<br/><hr />', '<br /><hr />'],
    ['<img src=x onerror=alert(1)>', '<img src="x">'],
  ];
  for (const [input, want] of cases) assert.equal(PE.sanitizeHtml(input), want, input);
  assert.equal(PE.sanitizeHtml(null), '');
});

test('safeUrl and safeColor', () => {
  assert.equal(PE.safeUrl('https://a.example'), 'https://a.example');
  assert.equal(PE.safeUrl('#/home'), '#/home');
  assert.equal(PE.safeUrl('microsites/duty-free/index.html'), 'microsites/duty-free/index.html');
  assert.equal(PE.safeUrl('vbscript:msgbox'), '#');
  assert.equal(PE.safeUrl({ type: 'Internal', value: '#/news' }), '#/news');
  assert.equal(PE.safeColor('#0a2540'), '#0a2540');
  assert.equal(PE.safeColor('rgb(1, 2, 3)'), 'rgb(1, 2, 3)');
  assert.equal(PE.safeColor('red" onmouseover="x'), '');
});

test('isRtl', () => {
  for (const l of ['ar_SA', 'he_IL', 'fa_IR', 'ur_PK', 'ar', 'ar-EG']) assert.ok(PE.isRtl(l), l);
  for (const l of ['en_GB', 'fr_FR', 'de_DE', 'arn_CL', '', undefined]) assert.ok(!PE.isRtl(l), String(l));
});

test('parseRoute', () => {
  assert.deepEqual(PE.parseRoute('#/weather?airport=LHR&x=a%20b'), { pageId: 'weather', params: { airport: 'LHR', x: 'a b' }, segments: ['weather'] });
  assert.deepEqual(PE.parseRoute('#/home'), { pageId: 'home', params: {}, segments: ['home'] });
  assert.deepEqual(PE.parseRoute(''), { pageId: '', params: {}, segments: [] });
  assert.deepEqual(PE.parseRoute('#/'), { pageId: '', params: {}, segments: [] });
  assert.deepEqual(PE.parseRoute('#section'), { pageId: '', params: {}, segments: [] });
  const captcha = PE.parseRoute('#/captcha/captcha-page/error/' + encodeURIComponent('https://x.example/a?b=1'));
  assert.equal(captcha.pageId, 'captcha');
  assert.deepEqual(captcha.segments, ['captcha', 'captcha-page', 'error', 'https://x.example/a?b=1']);
  assert.equal(PE.buildRoute('weather', { airport: 'LHR' }), '#/weather?airport=LHR');
  assert.deepEqual(PE.parseRoute(PE.buildRoute('a b', { 'k&': 'v=1' })), { pageId: 'a b', params: { 'k&': 'v=1' }, segments: ['a b'] });
});

test('pickLanguage', () => {
  const settings = { languageSettings: { languages: ['en_GB', 'fr_FR', 'ar_SA'], defaultLanguage: 'en_GB' } };
  assert.equal(PE.pickLanguage('?lang=fr_FR', settings), 'fr_FR');
  assert.equal(PE.pickLanguage('?designMode=1&lang=ar_SA', settings), 'ar_SA');
  assert.equal(PE.pickLanguage('?lang=xx_XX', settings), 'en_GB');
  assert.equal(PE.pickLanguage('', settings), 'en_GB');
});

test('sitemap helpers and parameters', () => {
  const sitemap = [
    { id: 'hidden', hidePage: true, status: 'PUBLISHED', children: [] },
    { id: 'draft', status: 'DRAFT', children: [] },
    { id: 'home', url: '/pages/home.html', status: 'PUBLISHED', children: [
      { id: 'weather', url: '/pages/weather.html', status: 'PUBLISHED', parameters: [{ name: 'airport', required: true }, { name: 'unit', required: false }], children: [] },
    ] },
  ];
  assert.equal(PE.defaultPage(sitemap).id, 'home');
  assert.equal(PE.findPage(sitemap, 'weather').id, 'weather');
  assert.equal(PE.findPage(sitemap, 'nope'), null);
  assert.equal(PE.pageUrl(PE.findPage(sitemap, 'weather')), 'pages/weather.html');
  assert.equal(PE.pageUrl({ id: 'x' }), 'pages/x.html');
  const weather = PE.findPage(sitemap, 'weather');
  const airport = { name: 'airport', description: '', value: '', required: true };
  assert.deepEqual(PE.missingParameters(weather, {}), [airport]);
  assert.deepEqual(PE.missingParameters(weather, { airport: ' ' }), [{ ...airport, value: ' ' }]);
  assert.deepEqual(PE.missingParameters(weather, { airport: 'CDG' }), []);
  assert.deepEqual(PE.pageParameters(weather, { airport: 'CDG' }), [{ ...airport, value: 'CDG' },
    { name: 'unit', description: '', value: '', required: false }]);
});

test('resolveData applies matching media queries', () => {
  const inst = { type: 'hero', data: { a: 1, b: 2 }, mediaQueries: { '(max-width: 600px)': { b: 3 }, '(min-width: 2000px)': { a: 9 } } };
  assert.deepEqual(PE.resolveData(inst, (q) => q === '(max-width: 600px)'), { a: 1, b: 3 });
  assert.deepEqual(PE.resolveData(inst, () => false), { a: 1, b: 2 });
  assert.deepEqual(inst.data, { a: 1, b: 2 });
});

test('parentOrigin accepts only an exact http(s) origin', () => {
  const po = (v) => PE.parentOrigin('?designMode=1&parentOrigin=' + encodeURIComponent(v));
  assert.equal(po('https://app.example'), 'https://app.example');
  assert.equal(po('http://localhost:5173'), 'http://localhost:5173');
  for (const bad of ['', '*', 'null', 'https://app.example/', 'https://app.example/x', 'ws://app.example',
    'file:///etc', 'javascript:alert(1)//', 'HTTPS://APP.EXAMPLE']) assert.equal(po(bad), '', bad);
  assert.equal(PE.parentOrigin('?designMode=1'), '');
});

// --- the runtime, on a fake DOM, window and clock

const APP = 'https://app.example';
const BASE = APP + '/api/v1/workspace/tok3n/dom1/por1/';
const MASTER = '<header><img data-pw-t="IMG_LOGO" data-pw-t-alt="TXT_LOGO_ALT" src="fallback.png" alt="">'
  + '<a data-pw-t="LNK_HELP" href="#">Help</a><span data-pw-t="TXT_TITLE">Title</span>'
  + '<nav><a href="#/home">Home</a><a href="#/weather?airport=LHR">Weather</a></nav></header>'
  + '<main data-pw-outlet></main><footer><div data-pw-widget="foot"></div></footer>';
const NARROW = '(max-width: 600px)';
const files = () => ({
  'portal.json': { formatVersion: 1, languageSettings: { languages: ['en_GB', 'ar_SA'], defaultLanguage: 'en_GB', languageMode: 'TRANSLATION' } },
  'sitemap.json': [
    { id: 'home', title: 'Home', url: '/pages/home.html', status: 'PUBLISHED', children: [
      { id: 'weather', title: 'Weather', url: '/pages/weather.html', status: 'PUBLISHED', children: [], parameters: [
        { name: 'airport', description: 'IATA code', required: true }, { name: 'unit', description: 'C or F', required: false }] },
    ] },
    { id: 'news', title: 'News', url: '/pages/news.html', status: 'DRAFT', children: [] },
  ],
  'pages/home.html': '<h1 data-pw-t="TXT_HOME">Home</h1><div data-pw-widget="hero"></div>',
  'pages/weather.html': '<p>Airport <b data-pw-param="airport"></b> <i data-pw-param="unit"></i></p>',
  'pages/news.html': '<p>Draft news</p>',
  'widgets/database/hero.json': { type: 'hero', data: { title: 'Hello <you>', link: 'javascript:alert(1)', align: 'start' },
    mediaQueries: { [NARROW]: { align: 'center' } } },
  'widgets/database/foot.json': { type: 'note', data: { text: 'TXT_FOOT' } },
  'widgets/modules/hero/config.probe.json': { name: 'Hero', properties: [
    { name: 'title', editor: 'TextInput' }, { name: 'link', editor: 'LinkManager' }, { name: 'align', editor: 'DropDown', options: ['start', 'center'] }] },
  'widgets/modules/hero/template.html': '<a class="hero-{{align}}" href="{{link}}">{{title}}</a>',
  'widgets/modules/note/config.probe.json': { name: 'Note', properties: [{ name: 'text', editor: 'TranslationSelector' }] },
  'widgets/modules/note/template.html': '<small>{{text}}</small>',
  'translations/en_GB.json': { TXT_HOME: 'Welcome', TXT_TITLE: 'Crew', IMG_LOGO: 'assets/logo.png', TXT_LOGO_ALT: 'Logo',
    LNK_HELP: 'https://help.example/', TXT_FOOT: 'Crew only' },
  'translations/ar_SA.json': { TXT_HOME: 'أهلا' },
});

function setup({ hash = '', query = '', extra = {}, media = [], hooks = [], body = MASTER } = {}) {
  const clock = new Clock();
  const parent = new Parent();
  const win = new FakeWindow({ url: BASE + 'index.html' + query + hash, body, files: { ...files(), ...extra }, clock, parent, media: new Set(media) });
  const doc = win.document;
  const events = [];
  win.addEventListener('pw-engine', (e) => events.push({ t: clock.now, ...e.detail }));
  const engine = new PE.Engine(win, doc, hooks);
  const steps = (from = 0) => events.slice(from).filter((e) => e.step).map((e) => e.step + ' ' + e.progress);
  const errors = () => events.filter((e) => e.error).map((e) => e.error);
  const outlet = () => doc.querySelector('[data-pw-outlet]');
  const send = (type, payload, { source = parent, origin = APP } = {}) =>
    win.dispatchEvent({ type: 'message', source, origin, data: JSON.stringify({ type, payload }) });
  return { clock, parent, win, doc, engine, events, steps, errors, outlet, send };
}
const DESIGN = '?designMode=1&parentOrigin=' + encodeURIComponent(APP);
const MASTER_STEPS = ['Parsing Master Page 5', 'Loading Master Page 10', 'Running Bootstrap Sequence 15', 'Setting Language 20', 'Preparing To Render 22'];
const PAGE_STEPS = ['Updating Route 25', 'Loading Page 33', 'Parsing Page 50', 'Preparing To Render 100'];

test('first load: the task chain in order, with the 150 ms and 100 ms waits', async () => {
  const h = setup({ hash: '#/home' });
  h.engine.start();
  await h.clock.advance(0);
  assert.deepEqual(h.steps(), MASTER_STEPS);
  assert.ok(h.events.every((e) => e.t === 0));
  await h.clock.advance(249);
  assert.deepEqual(h.steps(), MASTER_STEPS, 'nothing before 150 + 100 ms');
  assert.ok(!h.win.fetched.some((f) => f.url.includes('pages/home.html')), 'the page is not fetched before the waits');
  await h.clock.advance(1);
  assert.deepEqual(h.steps(), [...MASTER_STEPS, ...PAGE_STEPS]);
  assert.deepEqual(h.events.filter((e) => e.step === 'Updating Route').map((e) => [e.t, e.pageId]), [[250, 'home']]);
  assert.match(h.outlet().innerHTML, /<h1 data-pw-t="TXT_HOME">Welcome<\/h1>/);
  assert.equal(h.doc.title, 'Home');
  assert.deepEqual(h.errors(), []);
});

test('validation comes after the 150 ms wait and before the 100 ms wait', async () => {
  const h = setup({ hash: '#/weather' });
  h.engine.start();
  await h.clock.advance(149);
  assert.deepEqual(h.errors(), []);
  await h.clock.advance(1);
  const [err] = h.errors();
  assert.equal(err.errorCode, 'MISSING_PARAMETERS');
  assert.equal(h.events.find((e) => e.error).t, 150);
  assert.deepEqual(err.data.missing, [{ name: 'airport', description: 'IATA code', value: '', required: true }]);
  assert.deepEqual(err.data.parameters.map((p) => p.name), ['airport', 'unit']);
  assert.equal(err.data.pageId, 'weather');
  assert.equal(err.data.title, 'Weather');
  assert.ok(!h.steps().includes('Updating Route 25'));
  assert.match(h.outlet().innerHTML, /pw-error/, 'outside design mode the outlet shows the failure');
});

test('MISSING_PARAMETERS lists the values given; optional parameters are not required', async () => {
  const h = setup({ hash: '#/weather?unit=C&airport=%20' });
  h.engine.start();
  await h.clock.advance(1000);
  const [err] = h.errors();
  assert.deepEqual(err.data.parameters, [{ name: 'airport', description: 'IATA code', value: ' ', required: true },
    { name: 'unit', description: 'C or F', value: 'C', required: false }]);
  assert.deepEqual(err.data.missing.map((p) => p.name), ['airport']);
});

test('the master page: the chain stops after the 150 ms wait', async () => {
  const h = setup({ hash: '#/master-page' });
  h.engine.start();
  await h.clock.advance(1000);
  assert.deepEqual(h.steps(), [...MASTER_STEPS, 'Preparing To Render 100']);
  assert.equal(h.events.at(-1).pageId, 'master-page');
  assert.equal(h.events.at(-1).t, 150);
  assert.equal(h.outlet().innerHTML, '');
  assert.equal(h.doc.querySelector('[data-pw-widget="foot"]').innerHTML, '<small>Crew only</small>');
});

test('routing: default page, page change re-injects only, anchors, aria-current, params', async () => {
  const h = setup();
  h.engine.start();
  await h.clock.advance(1000);
  assert.equal(h.events.find((e) => e.step === 'Updating Route').pageId, 'home', 'no route opens the first visible page');
  const fetchedPortal = h.win.fetched.filter((f) => f.url.includes('portal.json')).length;
  const from = h.events.length;
  const t0 = h.clock.now;
  h.win.location.hash = '#/weather?airport=LHR&unit=F';
  await h.clock.advance(99);
  assert.deepEqual(h.steps(from), []);
  await h.clock.advance(1);
  assert.deepEqual(h.steps(from), PAGE_STEPS, 'a page change only validates and re-injects');
  assert.equal(h.events[from].t, t0 + 100);
  assert.equal(h.win.fetched.filter((f) => f.url.includes('portal.json')).length, fetchedPortal);
  assert.equal(h.outlet().querySelector('[data-pw-param="airport"]').textContent, 'LHR');
  assert.equal(h.outlet().querySelector('[data-pw-param="unit"]').textContent, 'F');
  assert.equal(h.doc.querySelector('a[href^="#/weather"]').getAttribute('aria-current'), 'page');
  assert.equal(h.doc.querySelector('a[href="#/home"]').getAttribute('aria-current'), null);
  const n = h.events.length;
  h.win.location.hash = '#section-2';
  await h.clock.advance(1000);
  assert.equal(h.events.length, n, 'an #anchor is not a route');
});

test('a newer route supersedes one still loading', async () => {
  let release;
  const h = setup({ hash: '#/home', extra: { 'pages/home.html': () => new Promise((r) => { release = r; }) } });
  h.engine.start();
  await h.clock.advance(300);
  h.win.location.hash = '#/weather?airport=CDG';
  await h.clock.advance(200);
  release({ ok: true, status: 200, text: async () => '<p>late home</p>' });
  await h.clock.advance(100);
  assert.doesNotMatch(h.outlet().innerHTML, /late home/);
  assert.equal(h.outlet().querySelector('[data-pw-param="airport"]').textContent, 'CDG');
  assert.deepEqual(h.events.filter((e) => e.progress === 100).map((e) => e.pageId), ['weather']);
});

test('unknown and DRAFT pages are UNKNOWN_ERROR 404 outside design mode; DRAFT opens in design mode', async () => {
  for (const hash of ['#/nope', '#/news']) {
    const h = setup({ hash });
    h.engine.start();
    await h.clock.advance(1000);
    assert.equal(h.errors()[0].errorCode, 'UNKNOWN_ERROR', hash);
    assert.equal(h.errors()[0].httpStatus, 404, hash);
  }
  const h = setup({ hash: '#/news', query: DESIGN });
  h.engine.start();
  await h.clock.advance(1000);
  assert.deepEqual(h.errors(), []);
  assert.match(h.outlet().innerHTML, /Draft news/);
  assert.ok(h.win.fetched.every((f) => f.init.cache === 'no-store'), 'design mode fetches with no-store');
});

test('a page file that cannot be read is UNKNOWN_ERROR with its HTTP status', async () => {
  const h = setup({ hash: '#/home', extra: { 'pages/home.html': undefined } });
  h.engine.start();
  await h.clock.advance(1000);
  assert.equal(h.errors()[0].errorCode, 'UNKNOWN_ERROR');
  assert.equal(h.errors()[0].httpStatus, 404);
  assert.deepEqual(h.errors()[0].data, { pageId: 'home', path: 'pages/home.html' });
});

test('start time-out: TIMED_OUT at 15000 ms and the chain stops', async () => {
  let release;
  const h = setup({ hash: '#/home', extra: { 'pages/home.html': () => new Promise((r) => { release = r; }) } });
  h.engine.start();
  await h.clock.advance(14999);
  assert.deepEqual(h.errors(), []);
  await h.clock.advance(1);
  assert.deepEqual(h.errors().map((e) => e.errorCode), ['TIMED_OUT']);
  assert.equal(h.events.find((e) => e.error).t, 15000);
  const n = h.events.length;
  release({ ok: true, status: 200, text: async () => '<p>late</p>' });
  await h.clock.advance(1000);
  assert.equal(h.events.length, n, 'nothing after the time-out');
  assert.doesNotMatch(h.outlet().innerHTML, /late/);
});

test('start time-out covers a bootstrap hook that never ends; a finished start never times out', async () => {
  const stuck = setup({ hash: '#/home', hooks: [() => new Promise(() => {})] });
  stuck.engine.start();
  await stuck.clock.advance(15000);
  assert.deepEqual(stuck.errors().map((e) => e.errorCode), ['TIMED_OUT']);
  assert.deepEqual(stuck.steps(), MASTER_STEPS.slice(0, 3));
  const ok = setup({ hash: '#/home' });
  ok.engine.start();
  await ok.clock.advance(60000);
  assert.deepEqual(ok.errors(), []);
  assert.equal(ok.clock.timers.length, 0, 'the time-out timer is cleared');
});

test('FAILED_TO_INIT_ENGINE: no outlet, or portal.json / sitemap.json unreadable', async () => {
  const noOutlet = setup({ body: '<p>no outlet</p>' });
  noOutlet.engine.start();
  await noOutlet.clock.advance(1000);
  assert.equal(noOutlet.errors()[0].errorCode, 'FAILED_TO_INIT_ENGINE');
  const noSitemap = setup({ extra: { 'sitemap.json': undefined } });
  noSitemap.engine.start();
  await noSitemap.clock.advance(1000);
  assert.equal(noSitemap.errors()[0].errorCode, 'FAILED_TO_INIT_ENGINE');
  assert.equal(noSitemap.errors()[0].httpStatus, 404);
  assert.equal(noSitemap.errors()[0].data, 'sitemap.json');
  const badJson = setup({ extra: { 'portal.json': '{nope' } });
  badJson.engine.start();
  await badJson.clock.advance(1000);
  assert.equal(badJson.errors()[0].errorCode, 'FAILED_TO_INIT_ENGINE');
});

test('FAILED_TO_INIT_IFAPI: bootstrap hooks run after Running Bootstrap Sequence', async () => {
  const seen = [];
  const ok = setup({ hash: '#/home', hooks: [async (engine) => { seen.push([ok.steps().at(-1), engine === ok.engine]); }] });
  ok.engine.start();
  await ok.clock.advance(1000);
  assert.deepEqual(seen, [['Running Bootstrap Sequence 15', true]]);
  assert.deepEqual(ok.errors(), []);
  const bad = setup({ hooks: [async () => { throw new Error('no IFAPI'); }] });
  bad.engine.start();
  await bad.clock.advance(1000);
  assert.deepEqual(bad.errors().map((e) => [e.errorCode, e.errorMessage]), [['FAILED_TO_INIT_IFAPI', 'no IFAPI']]);
  assert.ok(!bad.steps().includes('Setting Language 20'));
});

test('widgets: rendered from type template and data, escaped, media-query overrides follow the query', async () => {
  const h = setup({ hash: '#/home' });
  h.engine.start();
  await h.clock.advance(1000);
  const hero = h.doc.querySelector('[data-pw-widget="hero"]');
  assert.equal(hero.innerHTML, '<a class="hero-start" href="#">Hello &lt;you&gt;</a>');
  assert.equal(hero.getAttribute('data-pw-widget-type'), 'hero');
  h.win.setMedia(NARROW, true);
  await h.clock.advance(0);
  assert.equal(hero.innerHTML, '<a class="hero-center" href="#">Hello &lt;you&gt;</a>');
  h.win.setMedia(NARROW, false);
  await h.clock.advance(0);
  assert.match(hero.innerHTML, /hero-start/);
  const narrow = setup({ hash: '#/home', media: [NARROW] });
  narrow.engine.start();
  await narrow.clock.advance(1000);
  assert.match(narrow.doc.querySelector('[data-pw-widget="hero"]').innerHTML, /hero-center/);
});

test('widgets: a broken widget warns and the page still shows; a bad type name is refused', async () => {
  const h = setup({ hash: '#/home', extra: { 'widgets/database/hero.json': { type: '../../x', data: {} } } });
  h.engine.start();
  await h.clock.advance(1000);
  assert.ok(h.events.some((e) => /Widget hero/.test(e.warning || '')));
  assert.ok(!h.win.fetched.some((f) => f.url.includes('/x/')));
  assert.equal(h.doc.querySelector('[data-pw-widget="hero"]').innerHTML, '');
  assert.deepEqual(h.errors(), []);
  assert.ok(h.steps().includes('Preparing To Render 100'));
});

test('translations: data-pw-t text, IMG_ src, LNK_ href, data-pw-t-<attr>, lang and dir', async () => {
  const h = setup({ hash: '#/home' });
  h.engine.start();
  await h.clock.advance(1000);
  const img = h.doc.querySelector('img');
  assert.equal(img.getAttribute('src'), 'assets/logo.png');
  assert.equal(img.getAttribute('alt'), 'Logo');
  assert.equal(h.doc.querySelector('[data-pw-t="LNK_HELP"]').getAttribute('href'), 'https://help.example/');
  assert.equal(h.doc.querySelector('[data-pw-t="TXT_TITLE"]').textContent, 'Crew');
  assert.equal(h.doc.documentElement.getAttribute('lang'), 'en-GB');
  assert.equal(h.doc.documentElement.getAttribute('dir'), 'ltr');
  const ar = setup({ hash: '#/home', query: '?lang=ar_SA' });
  ar.engine.start();
  await ar.clock.advance(1000);
  assert.equal(ar.doc.documentElement.getAttribute('dir'), 'rtl');
  assert.equal(ar.doc.querySelector('[data-pw-t="TXT_HOME"]').textContent, 'أهلا');
  assert.equal(ar.doc.querySelector('[data-pw-t="TXT_TITLE"]').textContent, 'Title', 'a missing key keeps the fallback');
});

test('translations: unsafe values are neutralised', async () => {
  const t = { TXT_TITLE: '<img src=x onerror=alert(1)><b>bold</b>', LNK_HELP: 'javascript:alert(1)', IMG_LOGO: 'data:text/html,x' };
  const h = setup({ hash: '#/home', extra: { 'translations/en_GB.json': t } });
  h.engine.start();
  await h.clock.advance(1000);
  assert.equal(h.doc.querySelector('[data-pw-t="TXT_TITLE"]').innerHTML, '<img src="x"><b>bold</b>');
  assert.equal(h.doc.querySelector('[data-pw-t="LNK_HELP"]').getAttribute('href'), '#');
  assert.equal(h.doc.querySelector('img').getAttribute('src'), '#');
});

test('fetches are relative to the document: the token stays in the path, ?v= on every request', async () => {
  const h = setup({ hash: '#/home', query: '?v=42' });
  h.engine.start();
  await h.clock.advance(1000);
  assert.ok(h.win.fetched.length > 5);
  for (const f of h.win.fetched) {
    assert.ok(f.url.startsWith(BASE), f.url);
    assert.match(f.url, /[?&]v=42$/);
  }
  const src = readFileSync(new URL('./portal-engine.js', import.meta.url), 'utf8');
  assert.doesNotMatch(src, /location\.origin/, 'no URL or target built from the (opaque) origin');
  assert.doesNotMatch(src, /postMessage\([^)]*['"]\*['"]/, 'no postMessage to "*"');
});

// --- design-mode protocol

async function designed(opts = {}) {
  const h = setup({ hash: '#/home', query: DESIGN, ...opts });
  h.engine.start();
  await h.clock.advance(1000);
  return h;
}

test('protocol: every post goes to window.parent at parentOrigin', async () => {
  const h = await designed();
  assert.ok(h.parent.posted.length > 10);
  assert.ok(h.parent.posted.every((m) => m.targetOrigin === APP));
  assert.deepEqual(h.parent.of('engineEvent').filter((m) => m.payload.step).map((m) => m.payload.step + ' ' + m.payload.progress),
    [...MASTER_STEPS, ...PAGE_STEPS]);
  assert.deepEqual(h.parent.of('engineEvent').at(-1).payload, { step: 'Preparing To Render', progress: 100, pageId: 'home' });
  const reg = h.parent.of('registerShortCode').map((m) => m.payload);
  assert.deepEqual(reg.map((p) => p.id).sort(), ['foot', 'hero']);
  const hero = reg.find((p) => p.id === 'hero');
  const r = h.doc.querySelector('[data-pw-widget="hero"]').rect;
  assert.deepEqual(hero, { id: 'hero', type: 'hero', query: 'Full Size', rect: { x: r.left, y: r.top, width: r.width, height: r.height } });
  const done = h.parent.posted.findIndex((m) => m.payload.progress === 100);
  assert.deepEqual(h.parent.posted.slice(done + 1).map((m) => m.type), ['registerShortCode', 'registerShortCode'],
    'the complete set follows Preparing To Render 100');
});

test('protocol: registerShortCode reports the matching media query', async () => {
  const h = await designed({ media: [NARROW] });
  assert.equal(h.parent.of('registerShortCode').find((m) => m.payload.id === 'hero').payload.query, NARROW);
});

test('protocol: errors are posted as engineEvent', async () => {
  const h = await designed({ hash: '#/weather' });
  const err = h.parent.of('engineEvent').find((m) => m.payload.error).payload.error;
  assert.equal(err.errorCode, 'MISSING_PARAMETERS');
  assert.equal(err.data.missing[0].name, 'airport');
  assert.equal(h.outlet().innerHTML, '', 'design mode leaves the outlet to the designer');
});

test('protocol: messages from another source or origin are ignored', async () => {
  const h = await designed();
  const hero = h.doc.querySelector('[data-pw-widget="hero"]');
  const before = hero.innerHTML;
  const change = { id: 'hero', data: { title: 'Changed', link: '#/home', align: 'start' } };
  h.send('dataChanged', change, { origin: 'https://evil.example' });
  h.send('dataChanged', change, { origin: 'null' });
  h.send('dataChanged', change, { source: h.win });
  h.send('dataChanged', change, { source: null });
  await h.clock.advance(0);
  assert.equal(hero.innerHTML, before);
  h.win.dispatchEvent({ type: 'message', source: h.parent, origin: APP, data: '{not json' });
  h.send('dataChanged', change);
  await h.clock.advance(0);
  assert.equal(hero.innerHTML, '<a class="hero-start" href="#/home">Changed</a>');
});

test('protocol: without a valid parentOrigin design mode posts nothing and listens to nothing', async () => {
  for (const query of ['?designMode=1', '?designMode=1&parentOrigin=*', '?designMode=1&parentOrigin=null',
    '?designMode=1&parentOrigin=' + encodeURIComponent(APP + '/path')]) {
    const h = await designed({ query });
    assert.deepEqual(h.parent.posted, [], query);
    assert.equal(h.win.listenerCount('message'), 0, query);
    assert.equal(h.win.warnings.length, 1, query);
    assert.match(h.outlet().innerHTML, /Welcome/, 'the page still renders');
    const ev = h.doc.querySelector('[data-pw-widget="hero"]').querySelector('a').click();
    assert.equal(ev.defaultPrevented, false);
  }
  const plain = setup({ hash: '#/home' });
  plain.engine.start();
  await plain.clock.advance(1000);
  assert.deepEqual(plain.parent.posted, [], 'outside design mode nothing is posted');
  assert.equal(plain.win.warnings.length, 0);
});

test('protocol: a click on a widget sends shortCodeClicked and does not follow the link', async () => {
  const h = await designed();
  const ev = h.doc.querySelector('[data-pw-widget="hero"]').querySelector('a').click();
  assert.equal(ev.defaultPrevented, true);
  assert.deepEqual(h.parent.of('shortCodeClicked').map((m) => m.payload), [{ id: 'hero', type: 'hero' }]);
  const outside = h.doc.querySelector('a[href="#/home"]').click();
  assert.equal(outside.defaultPrevented, false);
  assert.equal(h.parent.of('shortCodeClicked').length, 1);
});

test('protocol: dataChanged re-renders that widget only, with a whole instance and its media queries', async () => {
  const h = await designed({ media: [NARROW] });
  const foot = h.doc.querySelector('[data-pw-widget="foot"]');
  const footChildren = foot.childNodes;
  let renders = 0;
  const orig = h.engine.renderWidget.bind(h.engine);
  h.engine.renderWidget = (...a) => { renders++; return orig(...a); };
  const n = h.parent.of('registerShortCode').length;
  h.send('dataChanged', { id: 'hero', data: { type: 'hero', data: { title: 'New', align: 'start' }, mediaQueries: { [NARROW]: { title: 'Small' } } } });
  await h.clock.advance(0);
  assert.equal(renders, 1);
  assert.equal(h.doc.querySelector('[data-pw-widget="hero"]').innerHTML, '<a class="hero-start" href="">Small</a>');
  assert.equal(foot.childNodes, footChildren, 'the other widget is untouched');
  assert.ok(h.parent.of('registerShortCode').length > n, 'registered again after the change');
  h.send('dataChanged', { id: 'hero' });
  await h.clock.advance(0);
  assert.match(h.doc.querySelector('[data-pw-widget="hero"]').innerHTML, /hero-center/, '{id} alone refetches');
  h.send('dataChanged', { id: 'missing-widget', data: { x: 1 } });
  await h.clock.advance(0);
  assert.equal(renders, 2);
});

test('protocol: translation_updated applies the new value now', async () => {
  const h = await designed();
  h.send('translation_updated', { key: 'txt_home', value: 'Hi there' });
  h.send('translation_updated', { key: 'TXT_FOOT', value: 'Foot 2' });
  await h.clock.advance(0);
  assert.equal(h.doc.querySelector('[data-pw-t="TXT_HOME"]').textContent, 'Hi there');
  assert.equal(h.doc.querySelector('[data-pw-widget="foot"]').innerHTML, '<small>Foot 2</small>');
  h.send('translation_updated', { key: 'TXT_HOME', value: 'Other language', language: 'ar_SA' });
  await h.clock.advance(0);
  assert.equal(h.doc.querySelector('[data-pw-t="TXT_HOME"]').textContent, 'Hi there');
});

test('protocol: navigate routes without reloading; the same page reloads its route', async () => {
  const h = await designed();
  const from = h.events.length;
  h.send('navigate', { pageId: 'weather', params: { airport: 'JFK' } });
  await h.clock.advance(1000);
  assert.equal(h.win.location.hash, '#/weather?airport=JFK');
  assert.deepEqual(h.steps(from), PAGE_STEPS);
  assert.equal(h.outlet().querySelector('[data-pw-param="airport"]').textContent, 'JFK');
  const again = h.events.length;
  h.send('navigate', { pageId: 'weather', params: { airport: 'JFK' } });
  await h.clock.advance(1000);
  assert.deepEqual(h.steps(again), PAGE_STEPS, 're-loading the same page reloads its route');
  assert.equal(h.win.fetched.filter((f) => f.url.includes('portal.json')).length, 1, 'the master page is not reloaded');
});

test('protocol: refreshVersion starts again and fetches everything with ?v=', async () => {
  const h = await designed();
  const from = h.events.length;
  const fetchedBefore = h.win.fetched.length;
  h.send('refreshVersion', { version: 'abc' });
  await h.clock.advance(1000);
  assert.deepEqual(h.steps(from), [...MASTER_STEPS, ...PAGE_STEPS]);
  const after = h.win.fetched.slice(fetchedBefore);
  assert.ok(after.some((f) => f.url.includes('portal.json')) && after.some((f) => f.url.includes('template.html')));
  assert.ok(after.every((f) => f.url.endsWith('?v=abc')));
  assert.equal(h.win.listenerCount('message'), 1, 'listeners are bound once');
});

test('protocol: rects are re-posted after a resize', async () => {
  const h = await designed();
  const n = h.parent.of('registerShortCode').length;
  h.win.dispatchEvent({ type: 'resize' });
  h.win.dispatchEvent({ type: 'resize' });
  await h.clock.advance(100);
  assert.equal(h.parent.of('registerShortCode').length, n + 2, 'debounced: once per widget');
});

test('README designer snippet: previewUrl gives the engine its parentOrigin; acceptEngineMessage checks source and origin', async () => {
  const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
  const block = /<!-- designer-protocol:start -->\s*```js\n([\s\S]*?)```\s*<!-- designer-protocol:end -->/.exec(readme);
  assert.ok(block, 'README has the designer-protocol block');
  const d = new Function(block[1].replace(/^export /gm, '') + '\nreturn { PREVIEW_SANDBOX, previewUrl, acceptEngineMessage, sendToEngine };')();
  assert.doesNotMatch(d.PREVIEW_SANDBOX, /allow-same-origin/);
  const url = new URL(d.previewUrl(BASE, 'weather', APP));
  assert.equal(PE.parentOrigin(url.search), APP);
  assert.equal(PE.parseRoute(url.hash).pageId, 'weather');
  assert.ok(url.href.startsWith(BASE + 'index.html?designMode=1&'));
  // engine → designer, end to end: what the engine posts passes the designer's check
  const h = setup({ hash: url.hash, query: url.search });
  const frame = { contentWindow: h.win };
  h.engine.start();
  await h.clock.advance(1000);
  const seen = h.parent.posted.map(({ type, payload }) => d.acceptEngineMessage({ source: h.win, origin: 'null', data: JSON.stringify({ type, payload }) }, frame));
  assert.ok(seen.length > 0 && seen.every((m) => m && m.type));
  const ok = { source: h.win, origin: 'null', data: JSON.stringify({ type: 'shortCodeClicked', payload: { id: 'hero' } }) };
  assert.deepEqual(d.acceptEngineMessage(ok, frame), { type: 'shortCodeClicked', payload: { id: 'hero' } });
  assert.equal(d.acceptEngineMessage({ ...ok, origin: APP }, frame), null);
  assert.equal(d.acceptEngineMessage({ ...ok, origin: 'https://evil.example' }, frame), null);
  assert.equal(d.acceptEngineMessage({ ...ok, source: {} }, frame), null);
  assert.equal(d.acceptEngineMessage({ ...ok, data: '{bad' }, frame), null);
  assert.equal(d.acceptEngineMessage({ ...ok, data: { type: 'x' } }, frame), null);
  assert.equal(d.acceptEngineMessage(ok, null), null);
  // designer → engine: sendToEngine reaches the engine only because the parent is the source at APP
  const sent = [];
  d.sendToEngine({ contentWindow: { postMessage: (m, o) => sent.push([m, o]) } }, 'navigate', { pageId: 'home' });
  assert.deepEqual(sent, [[JSON.stringify({ type: 'navigate', payload: { pageId: 'home' } }), '*']]);
});

test('protocol: refreshVersion retries a start that failed', async () => {
  let status = 500;
  const h = await designed({ extra: { 'portal.json': async () => ({ ok: status === 200, status, text: async () => '{}' }) } });
  assert.equal(h.errors()[0].errorCode, 'FAILED_TO_INIT_ENGINE');
  assert.equal(h.errors()[0].httpStatus, 500);
  status = 200;
  const from = h.events.length;
  h.send('refreshVersion', { version: '2' });
  await h.clock.advance(1000);
  assert.deepEqual(h.steps(from), [...MASTER_STEPS, ...PAGE_STEPS]);
});
