// The page a browser gets at `/` without credentials: paste the token (from `loom url` or
// `<state>/token`) and the form posts it to /login, which sets the cookie. No script.

export function renderLoginPage(message: string | null): string {
  const note = message ? `<p class="note">${message}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loom · sign in</title>
<style>
body{font:15px system-ui,sans-serif;margin:4rem auto;max-width:34rem;color:#222;background:#fff}
@media (prefers-color-scheme:dark){body{color:#ddd;background:#111}}
input{font:inherit;width:100%;padding:.4rem;margin:.5rem 0;box-sizing:border-box}
.note{color:#b33}
code{font-size:90%}
</style></head><body>
<h1>Loom</h1>
${note}
<p>This kernel needs its token. Run <code>loom url</code> on this machine and open the link it
prints, or paste the token from <code>~/.local/state/loom/token</code> here.</p>
<form method="post" action="/login">
<label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="off" autofocus required>
<button type="submit">Open the dashboard</button>
</form>
</body></html>
`;
}
