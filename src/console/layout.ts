// The page shell: a header with the product name, the navigation the user's role may see, who is
// signed in and the sign-out button; and a bare frame for the pages before sign-in.
import { html, type HtmlValue, type SafeHtml } from '../core/html.js';
import { ROLE_LABELS } from '../people/roles.js';
import type { ConsoleUser } from '../people/users.js';
import { csrfField } from './components.js';

export interface ConsoleAssets {
  readonly styleUrl: string;
}

export interface NavLink {
  readonly label: string;
  readonly path: string;
  readonly section: string;
}

const head = (title: string, assets: ConsoleAssets): SafeHtml => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Paygate console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets.styleUrl}">
</head>`;

export interface ShellOptions {
  readonly title: string;
  readonly body: HtmlValue;
  readonly user: ConsoleUser;
  readonly nav: readonly NavLink[];
  readonly currentPath: string;
  readonly csrfToken: string;
  readonly notice: string | null;
  readonly assets: ConsoleAssets;
}

export function renderShell(options: ShellOptions): string {
  const sections = [...new Set(options.nav.map((n) => n.section))];
  const active = (path: string) => options.currentPath === path || (path !== '/console' && options.currentPath.startsWith(`${path}/`));
  return html`${head(options.title, options.assets)}
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="topbar">
  <a class="brand" href="/console">Paygate <span>console</span></a>
  <div class="who"><span class="who-name">${options.user.email}</span> <span class="badge badge-info">${ROLE_LABELS[options.user.role]}</span></div>
  <form method="post" action="/console/logout" class="inline">${csrfField(options.csrfToken)}<button type="submit" class="button small secondary">Sign out</button></form>
</header>
<div class="layout">
<nav class="sidenav" aria-label="Console">
  <details open class="nav-toggle"><summary>Menu</summary>
  ${sections.map((section) => html`<p class="nav-section">${section}</p><ul>${options.nav
    .filter((n) => n.section === section)
    .map((n) => html`<li><a href="${n.path}"${active(n.path) ? html` aria-current="page"` : ''}>${n.label}</a></li>`)}</ul>`)}
  </details>
</nav>
<main id="main" tabindex="-1">
  <h1>${options.title}</h1>
  ${options.notice ? html`<div class="alert alert-ok" role="status">${options.notice}</div>` : ''}
  ${options.body}
</main>
</div>
</body>
</html>`.value;
}

/** Sign-in, enrolment and invitation pages: no navigation, one card in the middle. */
export function renderBare(title: string, body: HtmlValue, assets: ConsoleAssets): string {
  return html`${head(title, assets)}
<body class="bare">
<main id="main" class="bare-card">
  <p class="brand">Paygate <span>console</span></p>
  <h1>${title}</h1>
  ${body}
</main>
</body>
</html>`.value;
}
