// Cleaver console: progressive enhancement only (every page works without it).
// - [data-refresh]: re-fetch the element's HTML fragment every data-refresh-ms (live timeline).
// - [data-confirm] forms: ask before submitting (without scripts the server asks instead).
// - [data-copy]: copy the text of the element with that id.

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
          el.insertAdjacentHTML(
            'afterbegin',
            '<p class="live-error" role="alert">Session expired: reload to log in again.</p>',
          );
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
  for (const button of document.querySelectorAll('[data-copy]')) {
    button.addEventListener('click', async () => {
      const target = document.getElementById(button.getAttribute('data-copy'));
      if (!target) return;
      try {
        await navigator.clipboard.writeText(target.textContent.trim());
        button.textContent = 'Copied';
      } catch {
        window.getSelection().selectAllChildren(target);
      }
    });
  }
});
