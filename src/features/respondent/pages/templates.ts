/**
 * Mustache templates of the respondent pages. Every value goes through {{ }} (HTML-escaped by
 * lib/html.ts): form, question and company texts come from institutions and never become markup.
 * The only triple mustache is the page's own stylesheet, a constant of this module.
 */
import { createHash } from 'node:crypto';
import Mustache from 'mustache';
import { htmlEscaping } from '../../../lib/html.js';
import { ICON } from './icon-asset.js';
import type { LanguageLink } from './page-language.js';

export const CSS = `:root{--accent:#1d4ed8}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1a1f24;background:#f4f5f7}
main{max-width:40rem;margin:0 auto;padding:1rem;background:#fff;min-height:100vh}
header{display:flex;align-items:center;gap:.5rem;max-width:40rem;margin:0 auto;padding:.5rem 1rem;color:#4a5561;font-size:.9rem}
header img{height:2.5rem;width:auto;max-width:10rem;object-fit:contain}
h1{font-size:1.4rem;line-height:1.25;margin:.25rem 0 .5rem;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin:1rem 0 .25rem;overflow-wrap:anywhere}
.step,.note{color:#4a5561;font-size:.9rem;margin:.25rem 0}
.msg{white-space:pre-line;overflow-wrap:anywhere}
.intro{white-space:pre-line;font-size:1.05rem;margin:.5rem 0 1rem;overflow-wrap:anywhere}
progress{display:block;width:100%;height:.5rem;margin:.25rem 0 .75rem;border:0;border-radius:4px;background:#e3e6ea;accent-color:var(--accent);overflow:hidden}
progress::-webkit-progress-bar{background:#e3e6ea}progress::-webkit-progress-value{background:var(--accent)}progress::-moz-progress-bar{background:var(--accent)}
.q{border:0;margin:0 0 1.25rem;padding:0;min-width:0}
.q>legend,.q>label,.qlabel{display:block;font-weight:600;margin-bottom:.35rem;padding:0;overflow-wrap:anywhere}
.desc{margin:0 0 .35rem;color:#4a5561;font-size:.95rem}
.req{color:#a4141b}
input[type=text],input[type=number],input[type=date],input[type=time],input[type=datetime-local],select,textarea{width:100%;font:inherit;padding:.55rem;border:1px solid #6b7580;border-radius:6px;background:#fff;color:inherit}
textarea{min-height:6rem}
.opt{display:flex;align-items:flex-start;gap:.5rem;padding:.35rem 0;min-height:44px}
.opt input{width:1.25rem;height:1.25rem;margin:.15rem 0 0;flex:none}
.inline{display:flex;flex-wrap:wrap;gap:.25rem .75rem}
.inline .opt{min-width:2.5rem}
.stars{display:flex;flex-wrap:wrap;gap:.25rem}
.stars .opt,.scale .opt{position:relative;padding:0;gap:0}
.stars input,.scale input{position:absolute;inset:0;width:100%;height:100%;margin:0;opacity:0;cursor:pointer}
.glyph{display:flex;align-items:center;justify-content:center;width:44px;height:44px;font-size:2.2rem;line-height:1;color:#6b7580}
.stars input:checked~.glyph,.stars .opt:has(~.opt input:checked) .glyph{color:#b45309}
.scale{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(0,1fr);gap:2px}
.scale .opt span{display:flex;align-items:center;justify-content:center;width:100%;min-height:44px;border:1px solid #6b7580;border-radius:6px;font-weight:600;font-variant-numeric:tabular-nums}
.scale input:checked+span{background:var(--accent);border-color:var(--accent);color:#fff}
.stars input:focus-visible~.glyph,.scale input:focus-visible+span{outline:3px solid #f59e0b;outline-offset:2px;border-radius:6px}
.ends{display:flex;justify-content:space-between;gap:1rem;margin:.25rem 0 0;color:#4a5561;font-size:.85rem}.ends span:last-child{text-align:right}
.rank{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.3rem 0}.rank select{width:auto;min-width:4.5rem}.rank label{order:1;flex:1 1 8rem;max-width:100%;overflow-wrap:break-word}
.grip{display:flex;align-items:center;justify-content:center;flex:none;width:2rem;min-height:44px;font-size:1.4rem;color:#4a5561;cursor:grab;touch-action:none;user-select:none}
.rank.dragging{background:#eef2f6;border-radius:6px;outline:2px dashed var(--accent)}
.moves{display:flex;gap:.25rem}.mv{padding:0;width:44px;font-size:1.1rem;background:#fff;color:var(--accent)}
table{border-collapse:collapse;width:100%}
th,td{padding:.35rem;text-align:center;border-bottom:1px solid #d5d9de}
th[scope=row]{text-align:left;font-weight:500}
td label{display:flex;justify-content:center;align-items:center;min-height:44px}
td input{width:1.25rem;height:1.25rem;margin:0}
.cl{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:30rem){thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
tr,th[scope=row],td{display:block;border:0}tr{border-bottom:1px solid #d5d9de;padding:.25rem 0}
td{text-align:left;padding:0}td label{justify-content:flex-start;gap:.5rem}
td .cl{position:static;width:auto;height:auto;clip:auto}}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.err{color:#a4141b;font-weight:600;margin:.35rem 0 0}
[aria-invalid=true]{border-color:#a4141b;outline:1px solid #a4141b}
.summary{border:2px solid #a4141b;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.summary a{color:#a4141b}
.nav{display:flex;flex-direction:row-reverse;justify-content:space-between;gap:1rem;margin-top:1.5rem}
button{font:inherit;font-weight:600;padding:.7rem 1.4rem;border:2px solid var(--accent);border-radius:6px;background:var(--accent);color:#fff;cursor:pointer;min-height:44px}
button.secondary{background:#fff;color:var(--accent)}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
[hidden]{display:none!important}
.later{margin-top:1rem}
.notice{border:2px solid var(--accent);border-radius:6px;padding:.5rem 1rem;margin:1rem 0}.resume{font-family:ui-monospace,monospace;font-size:.85rem;overflow-wrap:anywhere}
.status{min-height:1.5rem;color:#4a5561;font-size:.9rem}
.langs ul{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:0 .25rem;list-style:none;margin:0 -.5rem 0 0;padding:0;font-size:.9rem}
.langs a,.langs span{display:inline-flex;align-items:center;min-height:44px;padding:0 .5rem}.langs a{color:var(--accent)}.langs span{font-weight:600}
.status:not(:empty){position:sticky;bottom:0;background:#fff;margin:0 -1rem;padding:.5rem 1rem;border-top:1px solid #d5d9de}`;

const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

/** CSP source of the inline stylesheet: no 'unsafe-inline' needed. */
export const CSS_HASH = styleHash(CSS);

/** The company's accent (a checked #RRGGBB) as the one rule that overrides the stylesheet's. */
const accentCss = (accent: string | undefined) => (accent ? `:root{--accent:${accent}}` : undefined);

/** The CSP style sources of a page: the stylesheet's, and its company accent rule's when it has one. */
export function styleSources(layout: Pick<LayoutView, 'accent'> | undefined): string {
  const accent = accentCss(layout?.accent);
  return accent ? `${CSS_HASH} ${styleHash(accent)}` : CSS_HASH;
}

const LAYOUT = `<!DOCTYPE html>
<html lang="{{lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex">
<title>{{title}}</title><link rel="icon" href="{{icon}}" type="image/svg+xml">{{#og}}
<meta name="description" content="{{description}}"><meta property="og:type" content="website"><meta property="og:title" content="{{title}}"><meta property="og:description" content="{{description}}">{{#siteName}}<meta property="og:site_name" content="{{siteName}}">{{/siteName}}<meta property="og:locale" content="{{locale}}">{{/og}}
<style>{{{css}}}</style>{{#accentCss}}<style>{{accentCss}}</style>{{/accentCss}}</head>
<body>{{#company}}<header>{{#logo}}<img src="{{logo}}" alt="">{{/logo}}<span>{{company}}</span></header>{{/company}}<main>{{#languages}}<nav class="langs" aria-label="{{label}}"><ul>{{#links}}<li>{{#href}}<a href="{{href}}" lang="{{lang}}" hreflang="{{lang}}">{{name}}</a>{{/href}}{{^href}}<span lang="{{lang}}" aria-current="page">{{name}}</span>{{/href}}</li>{{/links}}</ul></nav>{{/languages}}{{> body}}</main>{{#script}}<script src="{{script}}" defer></script>{{/script}}</body></html>`;

const MESSAGE = `<h1>{{heading}}</h1><p class="msg">{{text}}</p>`;

const QUESTION = `{{#isText}}<div class="q" id="q-{{id}}" data-q="{{id}}"{{#hidden}} hidden{{/hidden}}>
<label for="{{inputId}}">{{name}}{{#mandatory}} <span class="req" aria-hidden="true">*</span><span class="sr">({{required}})</span>{{/mandatory}}</label>
{{#description}}<p class="desc" id="d-{{id}}">{{description}}</p>{{/description}}{{#note}}<p class="desc" id="n-{{id}}">{{note}}</p>{{/note}}
<input id="{{inputId}}" name="{{field}}" type="{{inputType}}" value="{{value}}"{{#zoned}} data-zoned{{/zoned}}{{#min}} min="{{min}}"{{/min}}{{#max}} max="{{max}}"{{/max}}{{#step}} step="{{step}}"{{/step}}{{#inputMode}} inputmode="{{inputMode}}"{{/inputMode}}{{#mandatory}} aria-required="true"{{/mandatory}}{{#error}} aria-invalid="true"{{/error}} aria-describedby="{{describedBy}}{{#note}} n-{{id}}{{/note}}">
<p class="err" id="e-{{id}}"{{^error}} hidden{{/error}}>{{error}}</p></div>{{/isText}}
{{#isParagraph}}<div class="q" id="q-{{id}}" data-q="{{id}}"{{#hidden}} hidden{{/hidden}}>
<label for="{{inputId}}">{{name}}{{#mandatory}} <span class="req" aria-hidden="true">*</span><span class="sr">({{required}})</span>{{/mandatory}}</label>
{{#description}}<p class="desc" id="d-{{id}}">{{description}}</p>{{/description}}
<textarea id="{{inputId}}" name="{{field}}" maxlength="10000"{{#mandatory}} aria-required="true"{{/mandatory}}{{#error}} aria-invalid="true"{{/error}} aria-describedby="{{describedBy}}">{{value}}</textarea>
<p class="err" id="e-{{id}}"{{^error}} hidden{{/error}}>{{error}}</p></div>{{/isParagraph}}
{{#isSelect}}<div class="q" id="q-{{id}}" data-q="{{id}}"{{#hidden}} hidden{{/hidden}}>
<label for="{{inputId}}">{{name}}{{#mandatory}} <span class="req" aria-hidden="true">*</span><span class="sr">({{required}})</span>{{/mandatory}}</label>
{{#description}}<p class="desc" id="d-{{id}}">{{description}}</p>{{/description}}
<select id="{{inputId}}" name="{{field}}"{{#mandatory}} aria-required="true"{{/mandatory}}{{#error}} aria-invalid="true"{{/error}} aria-describedby="{{describedBy}}"><option value="">{{choosePrompt}}</option>{{#choices}}<option value="{{value}}"{{#checked}} selected{{/checked}}>{{label}}</option>{{/choices}}</select>
<p class="err" id="e-{{id}}"{{^error}} hidden{{/error}}>{{error}}</p></div>{{/isSelect}}
{{#isChoices}}<fieldset class="q" id="q-{{id}}" data-q="{{id}}"{{#hidden}} hidden{{/hidden}}{{#error}} aria-invalid="true"{{/error}} aria-describedby="{{describedBy}}{{#note}} n-{{id}}{{/note}}{{#ends}} n-{{id}}{{/ends}}">
<legend id="{{inputId}}" tabindex="-1">{{name}}{{#mandatory}} <span class="req" aria-hidden="true">*</span><span class="sr">({{required}})</span>{{/mandatory}}</legend>
{{#description}}<p class="desc" id="d-{{id}}">{{description}}</p>{{/description}}{{#note}}<p class="desc" id="n-{{id}}">{{note}}</p>{{/note}}
<div class="{{layout}}">{{#choices}}<label class="opt" for="{{inputId}}"><input type="{{choiceType}}" id="{{inputId}}" name="{{field}}" value="{{value}}"{{#checked}} checked{{/checked}}>{{#glyph}}<span class="sr">{{label}}</span><span class="glyph" aria-hidden="true">{{glyph}}</span>{{/glyph}}{{^glyph}} <span>{{label}}</span>{{/glyph}}</label>{{/choices}}</div>
{{#ends}}<p class="ends" id="n-{{id}}"><span>{{low}}</span> <span>{{high}}</span></p>{{/ends}}
<p class="err" id="e-{{id}}"{{^error}} hidden{{/error}}>{{error}}</p></fieldset>{{/isChoices}}
{{#isRanking}}<fieldset class="q" id="q-{{id}}" data-q="{{id}}"{{#hidden}} hidden{{/hidden}}{{#error}} aria-invalid="true"{{/error}} aria-describedby="{{describedBy}}">
<legend id="{{inputId}}" tabindex="-1">{{name}}{{#mandatory}} <span class="req" aria-hidden="true">*</span><span class="sr">({{required}})</span>{{/mandatory}}</legend>
{{#description}}<p class="desc" id="d-{{id}}">{{description}}</p>{{/description}}
<div class="ranks">{{#ranks}}<div class="rank"><span class="grip" aria-hidden="true" hidden>≡</span><select id="{{inputId}}" name="{{field}}"><option value="">–</option>{{#positions}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/positions}}</select> <label for="{{inputId}}">{{label}}</label><span class="moves" hidden><button type="button" class="mv" data-move="-1" aria-label="{{up}}">↑</button><button type="button" class="mv" data-move="1" aria-label="{{down}}">↓</button></span></div>{{/ranks}}</div>
<p class="err" id="e-{{id}}"{{^error}} hidden{{/error}}>{{error}}</p></fieldset>{{/isRanking}}
{{#isMatrix}}<fieldset class="q" id="q-{{id}}" data-q="{{id}}"{{#hidden}} hidden{{/hidden}}{{#error}} aria-invalid="true"{{/error}} aria-describedby="{{describedBy}}">
<legend id="{{inputId}}" tabindex="-1">{{name}}{{#mandatory}} <span class="req" aria-hidden="true">*</span><span class="sr">({{required}})</span>{{/mandatory}}</legend>
{{#description}}<p class="desc" id="d-{{id}}">{{description}}</p>{{/description}}
<table><thead><tr><td></td>{{#columns}}<th scope="col" id="{{headerId}}">{{name}}</th>{{/columns}}</tr></thead><tbody>
{{#rows}}<tr><th scope="row" id="{{headerId}}">{{name}}</th>{{#cells}}<td><label for="{{inputId}}"><input type="radio" id="{{inputId}}" name="{{field}}" value="{{value}}" aria-labelledby="{{labelledBy}}"{{#checked}} checked{{/checked}}><span class="cl" aria-hidden="true">{{label}}</span></label></td>{{/cells}}</tr>{{/rows}}
</tbody></table>
<p class="err" id="e-{{id}}"{{^error}} hidden{{/error}}>{{error}}</p></fieldset>{{/isMatrix}}
{{#isFile}}<div class="q" id="q-{{id}}" data-q="{{id}}"{{#hidden}} hidden{{/hidden}}>
<label for="{{inputId}}">{{name}}{{#mandatory}} <span class="req" aria-hidden="true">*</span><span class="sr">({{required}})</span>{{/mandatory}}</label>
{{#description}}<p class="desc" id="d-{{id}}">{{description}}</p>{{/description}}
{{#files.length}}<p class="desc" id="k-{{id}}">{{filesKept}} {{#files}}{{name}}; {{/files}}</p>{{/files.length}}
<input type="file" id="{{inputId}}" name="{{field}}" multiple{{#error}} aria-invalid="true"{{/error}} aria-describedby="{{describedBy}}">
<p class="err" id="e-{{id}}"{{^error}} hidden{{/error}}>{{error}}</p></div>{{/isFile}}`;

const WELCOME = `<h1>{{formName}}</h1>
{{#description}}<p class="intro">{{description}}</p>{{/description}}
<form method="get" action="{{action}}" id="quorum-welcome"{{#seenUrl}} data-seen="{{seenUrl}}"{{/seenUrl}}>{{#query}}<input type="hidden" name="{{name}}" value="{{value}}">{{/query}}<input type="hidden" name="start" value="1">
<div class="nav"><button type="submit">{{startLabel}}</button></div></form>`;

const FORM = `<h1>{{formName}}</h1>
<div class="progress"><p class="step" id="step">{{stepText}}</p><progress max="100" value="{{percent}}" aria-labelledby="step">{{percent}}%</progress></div>
{{#notice}}<div class="notice" role="status"><p>{{text}}</p>{{#url}}<p class="resume">{{url}}</p>{{/url}}</div>{{/notice}}
{{#errorList.length}}<div class="summary" id="error-summary" tabindex="-1" role="alert" autofocus><p>{{errorSummary}}</p><ul>{{#errorList}}<li><a href="#{{anchor}}">{{label}}</a></li>{{/errorList}}</ul></div>{{/errorList.length}}
<form method="post" action="{{action}}" enctype="{{enctype}}" novalidate id="quorum-form"{{#draftUrl}} data-draft="{{draftUrl}}"{{/draftUrl}}{{#seenUrl}} data-seen="{{seenUrl}}"{{/seenUrl}} data-section="{{sectionIndex}}" data-lang="{{lang}}" data-rules="{{rules}}" data-messages="{{messages}}">
<h2>{{sectionName}}</h2>
{{#sectionDescription}}<p class="desc">{{sectionDescription}}</p>{{/sectionDescription}}
{{#hasRequired}}<p class="note">{{requiredNote}}</p>{{/hasRequired}}
<input type="hidden" name="_section" value="{{sectionIndex}}"><input type="hidden" name="_shown" value="{{shown}}">
{{#state}}<input type="hidden" name="_answers" value="{{state}}">{{/state}}{{#submissionToken}}<input type="hidden" name="_token" value="{{submissionToken}}">{{/submissionToken}}
{{#questions}}{{> question}}{{/questions}}
<div class="nav"><button type="submit" name="_action" value="next">{{nextLabel}}</button>{{#canBack}}<button type="submit" name="_action" value="back" class="secondary">{{back}}</button>{{/canBack}}</div>{{#saveLater}}
<div class="later"><button type="submit" name="_action" value="save" class="secondary">{{saveLater}}</button></div>{{/saveLater}}
<p class="status" id="save-status" role="status" aria-live="polite"></p>
</form>`;

export interface LayoutView {
  lang: string;
  title: string;
  company?: string;
  /** the company's logo, served by Quorum (same origin: the page makes no third-party request) */
  logo?: string;
  /** the company's brand colour, #RRGGBB checked for AA contrast on white when it was saved */
  accent?: string;
  script?: string;
  /** a public link's preview card (Open Graph); personal links have none */
  og?: { description: string; siteName?: string; locale: string };
  /** the language switch: the form offers several languages (links, so it works without the script) */
  languages?: { label: string; links: LanguageLink[] };
}

function renderPage(body: string, layout: LayoutView, view: object): string {
  return Mustache.render(LAYOUT, { ...layout, ...view, css: CSS, accentCss: accentCss(layout.accent), icon: ICON.path }, { body, question: QUESTION }, htmlEscaping);
}

export function renderMessagePage(layout: LayoutView, heading: string, text: string): string {
  return renderPage(MESSAGE, layout, { heading, text });
}

export function renderFormPage(layout: LayoutView, view: object): string {
  return renderPage(FORM, layout, view);
}

export interface WelcomeView {
  formName: string;
  description: string;
  /** the link's GET; the button asks it again with start=1 and the link's own query (a public link's prefill) */
  action: string;
  query: { name: string; value: string }[];
  seenUrl?: string;
  startLabel: string;
}

export function renderWelcomePage(layout: LayoutView, view: WelcomeView): string {
  return renderPage(WELCOME, layout, view);
}
