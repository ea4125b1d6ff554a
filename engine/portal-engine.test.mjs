// Run: node --test engine/   (Node 20+, built-ins only)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const PE = require('./portal-engine.js');

test('loads in Node without starting and exposes globalThis.PortalEngine', () => {
  assert.equal(globalThis.PortalEngine, PE);
  assert.equal(PE.FORMAT_VERSION, 1);
  assert.deepEqual(Object.keys(PE.ERROR_CODES).sort(),
    ['FAILED_TO_INIT_ENGINE', 'MISSING_ENGINE', 'MISSING_PARAMETERS', 'TIMED_OUT', 'UNKNOWN_ERROR']);
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
  assert.deepEqual(PE.missingParameters(PE.findPage(sitemap, 'weather'), {}), ['airport']);
  assert.deepEqual(PE.missingParameters(PE.findPage(sitemap, 'weather'), { airport: ' ' }), ['airport']);
  assert.deepEqual(PE.missingParameters(PE.findPage(sitemap, 'weather'), { airport: 'CDG' }), []);
});

test('resolveData applies matching media queries', () => {
  const inst = { type: 'hero', data: { a: 1, b: 2 }, mediaQueries: { '(max-width: 600px)': { b: 3 }, '(min-width: 2000px)': { a: 9 } } };
  assert.deepEqual(PE.resolveData(inst, (q) => q === '(max-width: 600px)'), { a: 1, b: 3 });
  assert.deepEqual(PE.resolveData(inst, () => false), { a: 1, b: 2 });
  assert.deepEqual(inst.data, { a: 1, b: 2 });
});

test('validateProbe', () => {
  assert.deepEqual(PE.validateProbe({ name: 'x', properties: [{ name: 'a', editor: 'TextInput' }, { name: 'c', editor: 'DropDown', options: ['x'] }] }), []);
  assert.equal(PE.validateProbe({ name: 'x', properties: [{ name: 'a', editor: 'Bogus' }] }).length, 1);
  assert.equal(PE.validateProbe({ name: 'x', properties: [{ name: 'a', editor: 'DropDown' }] }).length, 1);
  assert.equal(PE.validateProbe({ properties: [] }).length, 1);
});
