/**
 * The server-rendered pages of sign-in: the embedded provider's form and the error pages of the
 * sign-in flow. Self-contained (inline styles only: our CSP allows no inline scripts and no
 * other origins), and usable without JavaScript.
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
:root { color-scheme: light dark; --bg: #f1f3f5; --card: #fff; --text: #212529; --muted: #868e96;
  --border: #ced4da; --accent: #1c7ed6; --accent-dark: #1864ab; --error-bg: #fff5f5; --error: #c92a2a; }
@media (prefers-color-scheme: dark) { :root { --bg: #1a1b1e; --card: #25262b; --text: #e9ecef; --muted: #909296;
  --border: #373a40; --error-bg: #2c1a1a; --error: #ff8787; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px;
  background: var(--bg); color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { width: 100%; max-width: 380px; background: var(--card); border-radius: 12px; padding: 32px;
  box-shadow: 0 1px 3px rgb(0 0 0 / 0.08), 0 12px 32px rgb(0 0 0 / 0.08); }
.brand { width: 44px; height: 44px; border-radius: 10px; background: var(--accent); color: #fff;
  display: grid; place-items: center; font-weight: 700; letter-spacing: 0.5px; margin-bottom: 16px; }
h1 { font-size: 1.4rem; margin: 0 0 20px; }
p { margin: 0 0 16px; }
.alert { background: var(--error-bg); color: var(--error); border-radius: 8px; padding: 10px 12px; font-size: 0.95rem; }
label { display: block; font-weight: 600; font-size: 0.9rem; margin: 14px 0 6px; }
input { width: 100%; padding: 10px 12px; font: inherit; color: inherit; background: transparent;
  border: 1px solid var(--border); border-radius: 8px; }
input:focus { outline: 2px solid var(--accent); outline-offset: 1px; border-color: var(--accent); }
button, .button { display: block; width: 100%; margin-top: 24px; padding: 11px; border: 0; border-radius: 8px;
  background: var(--accent); color: #fff; font: inherit; font-weight: 600; text-align: center; text-decoration: none; cursor: pointer; }
button:hover, .button:hover { background: var(--accent-dark); }
.hint { color: var(--muted); font-size: 0.85rem; margin: 20px 0 0; text-align: center; }
`;

export function renderPage(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand" aria-hidden="true">PIM</div>
${content}
</main>
</body>
</html>
`;
}

export function loginPage(opts: { action: string; email?: string; message?: string }): string {
  const alert = opts.message ? `<p class="alert" role="alert">${escapeHtml(opts.message)}</p>` : '';
  return renderPage(
    'Sign in to PIM',
    `<h1>Sign in to PIM</h1>
${alert}
<form method="post" action="${escapeHtml(opts.action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required${opts.email ? '' : ' autofocus'} value="${escapeHtml(opts.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${opts.email ? ' autofocus' : ''}>
<button type="submit">Sign in</button>
</form>
<p class="hint">No account yet? An administrator of PIM creates it for you.</p>`,
  );
}

/** A dead end of the sign-in flow: what went wrong and the way back to the app. */
export function problemPage(opts: { title: string; message: string; backUrl: string }): string {
  return renderPage(
    opts.title,
    `<h1>${escapeHtml(opts.title)}</h1>
<p class="alert" role="alert">${escapeHtml(opts.message)}</p>
<a class="button" href="${escapeHtml(opts.backUrl)}">Back to PIM</a>`,
  );
}
