// The book's page script, loaded in <head> of every page: the colour theme
// (light, dark, or the system's prefers-color-scheme) is applied before the
// page paints, then a search box and a theme toggle join the top navigation,
// and wide figures open enlarged on click.
(function () {
  'use strict';
  const key = 'book-theme';
  let saved = null;
  try { saved = localStorage.getItem(key); } catch (e) { /* file:// or private mode */ }
  if (saved === 'light' || saved === 'dark') document.documentElement.dataset.theme = saved;

  function current() {
    const t = document.documentElement.dataset.theme;
    if (t) return t;
    return window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  document.addEventListener('DOMContentLoaded', function () {
    const nav = document.querySelector('nav.book-nav-top');
    const root = (nav && nav.dataset.root) || document.documentElement.dataset.root || '';
    if (nav) {
      const tools = document.createElement('span');
      tools.className = 'book-tools';
      const form = document.createElement('form');
      form.action = root + 'search.html';
      form.setAttribute('role', 'search');
      const input = document.createElement('input');
      input.type = 'search'; input.name = 'q'; input.placeholder = 'Search';
      input.setAttribute('aria-label', 'Search the book');
      form.append(input);
      const btn = document.createElement('button');
      btn.type = 'button'; btn.className = 'book-theme-toggle';
      const label = () => {
        const dark = current() === 'dark';
        btn.textContent = dark ? '☀' : '☾';
        btn.title = dark ? 'Light theme' : 'Dark theme';
        btn.setAttribute('aria-label', btn.title);
      };
      label();
      btn.addEventListener('click', function () {
        const next = current() === 'dark' ? 'light' : 'dark';
        document.documentElement.dataset.theme = next;
        try { localStorage.setItem(key, next); } catch (e) { /* not kept */ }
        label();
      });
      if (!document.getElementById('book-q')) tools.append(form);
      tools.append(btn);
      nav.append(tools);
    }
    // Click to enlarge: a figure opens in an overlay at the window's size
    // (wide multi-panel figures are small at the text's width); click or Esc closes.
    for (const a of document.querySelectorAll('figure.book-figure > a')) {
      a.addEventListener('click', function (ev) {
        if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
        ev.preventDefault();
        const o = document.createElement('div');
        o.className = 'book-zoom';
        o.setAttribute('role', 'dialog');
        o.title = 'Click or press Esc to close';
        const img = document.createElement('img');
        img.src = a.getAttribute('href');
        img.alt = (a.querySelector('img') || {}).alt || '';
        o.append(img);
        const close = () => { o.remove(); document.removeEventListener('keydown', esc); };
        const esc = e => { if (e.key === 'Escape') close(); };
        o.addEventListener('click', close);
        document.addEventListener('keydown', esc);
        document.body.append(o);
      });
    }
  });
})();
