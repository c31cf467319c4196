// Cleaver console: progressive enhancement only (every page works without it).
// - [data-refresh]: re-fetch the element's HTML fragment every data-refresh-ms (live timeline).
// - [data-confirm] forms: ask before submitting (without scripts the server asks instead).
// - [data-copy]: copy the text of the element with that id.
// - details.menu (the operator's menu): closes on Escape and on a click outside it.
// Its few words come from the page (<body data-msg-…>), in the operator's language.

const message = (name, fallback) => document.body?.getAttribute(`data-msg-${name}`) || fallback;

function startRefresh(el) {
  const url = el.getAttribute('data-refresh');
  const every = Number(el.getAttribute('data-refresh-ms')) || 2000;
  let stopped = false;
  async function tick() {
    if (stopped) return;
    if (document.visibilityState === 'visible') {
      try {
        const res = await fetch(url, { credentials: 'same-origin', headers: { 'x-console-fragment': '1' } });
        if (res.status === 401) {
          stopped = true;
          const p = document.createElement('p');
          p.className = 'live-error';
          p.setAttribute('role', 'alert');
          p.textContent = message('expired', 'Session expired: reload to log in again.');
          el.prepend(p);
          return;
        }
        if (res.ok) {
          const text = await res.text();
          if (text !== el.getAttribute('data-last')) {
            el.innerHTML = text;
            el.setAttribute('data-last', text);
          }
        }
      } catch {
        // Network hiccup: try again on the next tick.
      }
    }
    setTimeout(tick, every);
  }
  setTimeout(tick, every);
}

document.addEventListener('DOMContentLoaded', () => {
  for (const el of document.querySelectorAll('[data-refresh]')) startRefresh(el);
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.getAttribute('data-confirm'))) {
        event.preventDefault();
        return;
      }
      // Asked here: the server's confirmation step (confirm-step.ts) need not ask again.
      if (!form.querySelector('input[name="confirm"]')) {
        form.insertAdjacentHTML('beforeend', '<input type="hidden" name="confirm" value="yes">');
      }
    });
  }
  const menu = document.querySelector('details.menu');
  if (menu) {
    document.addEventListener('click', (event) => {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && menu.open) {
        menu.open = false;
        menu.querySelector('summary')?.focus();
      }
    });
  }
  for (const button of document.querySelectorAll('[data-copy]')) {
    button.addEventListener('click', async () => {
      const target = document.getElementById(button.getAttribute('data-copy'));
      if (!target) return;
      try {
        await navigator.clipboard.writeText(target.textContent.trim());
        button.textContent = message('copied', 'Copied');
      } catch {
        window.getSelection().selectAllChildren(target);
      }
    });
  }
});
