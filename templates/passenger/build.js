#!/usr/bin/env node
// Passenger Portal build: content/<lang>/*.json (each checked against its companion <file>.schema)
// + widgets/database/*.json → <outputPath>/ (portal.json taskRunnerSettings.outputPath, default
// pw-dist): index.html (goes to the default language), <lang>/index.html, <lang>/data.json (the data
// bundle) and a copy of assets/. Plain Node (>= 18), no dependencies. The task runner runs it.
//   node build.js           validate and build
//   node build.js --check   validate only
// Exit status 1 when content does not match its schema; problems go to stderr, one per line.
'use strict';
const fs = require('fs');
const path = require('path');

const root = __dirname;
const readJson = (p) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
const portal = readJson('portal.json');
const ls = portal.languageSettings || {};
const languages = ls.languages || ['en_GB'];
const contentBase = ls.languageBasePath || 'content';
const outDir = path.join(root, (portal.taskRunnerSettings && portal.taskRunnerSettings.outputPath) || 'pw-dist');
const checkOnly = process.argv.includes('--check');

// validate: a small JSON Schema (draft-07) subset: type, required, properties, items, enum,
// minLength, maxLength, pattern, minimum, maximum, minItems. Returns a list of problems.
function validate(schema, value, at = '$') {
  const errs = [];
  const types = [].concat(schema.type || []);
  const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  const t = typeOf(value);
  if (types.length && !types.some((x) => x === t || (x === 'number' && t === 'integer'))) {
    return [`${at}: expected ${types.join(' or ')}, found ${t}`];
  }
  if (schema.enum && !schema.enum.includes(value)) errs.push(`${at}: must be one of ${schema.enum.join(', ')}`);
  if (t === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) errs.push(`${at}: is too short`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) errs.push(`${at}: is too long`);
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) errs.push(`${at}: does not match ${schema.pattern}`);
  }
  if (t === 'number' || t === 'integer') {
    if (schema.minimum !== undefined && value < schema.minimum) errs.push(`${at}: is below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errs.push(`${at}: is above ${schema.maximum}`);
  }
  if (t === 'object') {
    for (const k of schema.required || []) if (!(k in value)) errs.push(`${at}.${k}: is required`);
    for (const [k, sub] of Object.entries(schema.properties || {})) {
      if (k in value) errs.push(...validate(sub, value[k], `${at}.${k}`));
    }
  }
  if (t === 'array') {
    if (schema.minItems !== undefined && value.length < schema.minItems) errs.push(`${at}: needs ${schema.minItems} items`);
    if (schema.items) value.forEach((v, i) => errs.push(...validate(schema.items, v, `${at}[${i}]`)));
  }
  return errs;
}

const esc = (v) => String(v == null ? '' : v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const asset = (p) => (p && /^assets\//.test(p) ? '../' + p : '');

function loadWidgets() {
  const dir = path.join(root, 'widgets', 'database');
  const out = {};
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    out[f.slice(0, -5)] = readJson(path.join('widgets', 'database', f));
  }
  return out;
}

function render(lang, content, widgets) {
  const labels = (widgets.labels && widgets.labels.data[lang]) || {};
  const theme = (widgets.theme && widgets.theme.data) || {};
  const sections = ((widgets.home && widgets.home.data.sections) || []).map((s) => {
    const c = content[s.content];
    if (!c) return '';
    if (s.content === 'destinations') {
      return `<section id="destinations"><h2>${esc(c.title)}</h2><div class="cards">${c.items.map((d) => `
        <article class="card">${d.image ? `<img src="${esc(asset(d.image))}" alt="">` : ''}
          <h3>${esc(d.name)}</h3><p class="muted">${esc(d.country)}</p><p>${esc(d.description)}</p>
          ${d.flightTime ? `<p class="muted">${esc(labels.flightTime)}: ${esc(d.flightTime)}</p>` : ''}</article>`).join('')}</div></section>`;
    }
    if (s.content === 'menu') {
      const money = new Intl.NumberFormat(lang.replace('_', '-'), { style: 'currency', currency: c.currency });
      return `<section id="menu"><h2>${esc(c.title)}</h2>${c.sections.map((sec) => `
        <h3>${esc(sec.name)}</h3><ul class="menu">${sec.items.map((i) => `
          <li><span>${esc(i.name)}${i.vegetarian ? ` <small>(${esc(labels.vegetarian)})</small>` : ''}${i.description ? `<br><small class="muted">${esc(i.description)}</small>` : ''}</span><strong>${esc(money.format(i.price))}</strong></li>`).join('')}</ul>`).join('')}</section>`;
    }
    return `<section id="${esc(s.content)}"><h2>${esc(c.title)}</h2><ul class="list">${(c.items || []).map((i) => `
      <li><strong>${esc(i.title || i.name)}</strong>${i.durationMinutes ? ` · ${esc(i.durationMinutes)} ${esc(labels.minutes)}` : ''}${i.ageRating ? ` · ${esc(i.ageRating)}` : ''}<br><span class="muted">${esc(i.description)}</span></li>`).join('')}</ul></section>`;
  }).join('\n');
  const langLinks = languages.map((l) => `<a href="../${l}/index.html"${l === lang ? ' aria-current="true"' : ''}>${esc(l.slice(0, 2).toUpperCase())}</a>`).join(' ');
  return `<!DOCTYPE html>
<html lang="${esc(lang.replace('_', '-'))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(labels.portalTitle || portal.name)}</title>
<style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:${esc(theme.background || '#fff')};color:#1b2430}
header{display:flex;justify-content:space-between;align-items:center;padding:.75rem 1.25rem;background:${esc(theme.accent || '#333')};color:#fff}
header a{color:#fff;margin-inline-start:.5rem}header img{height:36px;vertical-align:middle;margin-inline-end:.5rem}
main{max-width:60rem;margin:auto;padding:1rem 1.25rem}.muted{color:#5b6776}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem}
.card{background:#fff;border-radius:10px;padding:1rem}.card img{width:100%;height:90px;object-fit:cover;border-radius:6px}
.menu,.list{list-style:none;padding:0}.menu li{display:flex;justify-content:space-between;gap:1rem;padding:.4rem 0;border-bottom:1px solid #dde3ea}
.list li{padding:.5rem 0;border-bottom:1px solid #dde3ea}
</style>
</head>
<body>
<header><span>${theme.logo ? `<img src="${esc(asset(theme.logo))}" alt="">` : ''}${esc(labels.portalTitle || portal.name)}</span><nav aria-label="${esc(labels.language || 'Language')}">${langLinks}</nav></header>
<main>
${sections}
</main>
<script type="application/json" id="pw-data">${JSON.stringify({ language: lang, content }).replace(/</g, '\\u003c')}</script>
</body>
</html>
`;
}

function copyDir(from, to) {
  if (!fs.existsSync(from)) return;
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory()) copyDir(path.join(from, e.name), path.join(to, e.name));
    else fs.copyFileSync(path.join(from, e.name), path.join(to, e.name));
  }
}

const problems = [];
const bundles = {};
const widgets = loadWidgets();
for (const lang of languages) {
  const dir = path.join(root, contentBase, lang);
  if (!fs.existsSync(dir)) { problems.push(`${contentBase}/${lang}: missing language folder`); continue; }
  const content = {};
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const name = f.slice(0, -5);
    const rel = `${contentBase}/${lang}/${f}`;
    let data;
    try { data = readJson(rel); } catch (e) { problems.push(`${rel}: ${e.message}`); continue; }
    const schemaPath = `${rel}.schema`;
    if (!fs.existsSync(path.join(root, schemaPath))) { problems.push(`${rel}: no schema ${schemaPath}`); continue; }
    for (const p of validate(readJson(schemaPath), data)) problems.push(`${rel}: ${p}`);
    JSON.stringify(data).replace(/"(assets\/[^"]+)"/g, (m, a) => {
      if (!fs.existsSync(path.join(root, a))) problems.push(`${rel}: missing asset ${a}`);
      return m;
    });
    content[name] = data;
  }
  bundles[lang] = content;
}
if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(`build failed: ${problems.length} problem(s)`);
  process.exit(1);
}
if (checkOnly) { console.log(`content ok (${languages.join(', ')})`); process.exit(0); }

fs.rmSync(outDir, { recursive: true, force: true });
for (const lang of languages) {
  fs.mkdirSync(path.join(outDir, lang), { recursive: true });
  const bundle = { portal: portal.name, language: lang, content: bundles[lang], widgets };
  fs.writeFileSync(path.join(outDir, lang, 'data.json'), JSON.stringify(bundle, null, 2) + '\n');
  fs.writeFileSync(path.join(outDir, lang, 'index.html'), render(lang, bundles[lang], widgets));
}
const def = ls.defaultLanguage || languages[0];
fs.writeFileSync(path.join(outDir, 'index.html'), `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${def}/index.html"><title>${esc(portal.name)}</title></head>
<body>${languages.map((l) => `<a href="${l}/index.html">${l}</a>`).join(' ')}</body></html>
`);
copyDir(path.join(root, 'assets'), path.join(outDir, 'assets'));
console.log(`built ${path.relative(root, outDir)}/ for ${languages.join(', ')}`);
