// The book's search page: MiniSearch over the documents scripts/book wrote
// into assets/search-index.js (window.BOOK_SEARCH_DOCS). Offline.
(function () {
  'use strict';
  const docs = window.BOOK_SEARCH_DOCS || [];
  const ms = new MiniSearch({
    fields: ['title', 'text', 'page'],
    storeFields: ['url', 'title', 'page', 'text'],
    searchOptions: { boost: { title: 4, page: 0.5 }, prefix: true, fuzzy: 0.15, combineWith: 'AND' },
  });
  ms.addAll(docs);
  const q = document.getElementById('book-q');
  const list = document.getElementById('book-results');
  const status = document.getElementById('book-search-status');

  // snippet: the text around the first query term, the terms marked.
  function snippet(text, terms) {
    const low = text.toLowerCase();
    let at = -1;
    for (const t of terms) { const i = low.indexOf(t.toLowerCase()); if (i >= 0 && (at < 0 || i < at)) at = i; }
    const start = Math.max(0, at - 80);
    let s = (start > 0 ? '…' : '') + text.slice(start, start + 240) + (text.length > start + 240 ? '…' : '');
    const esc = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    if (!terms.length) return esc;
    const re = new RegExp('(' + terms.map(t => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|') + ')', 'gi');
    return esc.replace(re, '<mark>$1</mark>');
  }

  function run() {
    const query = q.value.trim();
    list.textContent = '';
    if (!query) { status.textContent = docs.length + ' sections indexed.'; return; }
    const res = ms.search(query).slice(0, 50);
    status.textContent = res.length ? res.length + (res.length === 50 ? '+' : '') + ' results for “' + query + '”.' : 'Nothing found for “' + query + '”.';
    for (const r of res) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = r.url;
      a.textContent = r.title;
      a.className = 'book-result';
      const where = document.createElement('span');
      where.className = 'book-meta';
      where.textContent = ' — ' + r.page;
      const p = document.createElement('p');
      p.innerHTML = snippet(r.text, Object.keys(r.match || {}));
      li.append(a, where, p);
      list.append(li);
    }
  }
  const params = new URLSearchParams(location.search);
  if (params.get('q')) q.value = params.get('q');
  q.addEventListener('input', run);
  run();
})();
