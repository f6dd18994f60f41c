package main

import (
	_ "embed"
	"encoding/json"
	"html"
	"regexp"
	"strings"
)

// The site's search runs in the reader's browser, offline: scripts/book
// cuts every page into documents (a chapter section, a report figure, a
// package or one of its exported names), writes them to
// assets/search-index.js, and search.html indexes them with MiniSearch
// (the npm package minisearch, bundled like ECharts) when it opens.
// A script, not a JSON file fetched at run time, so that the search works
// from file:// too.

//go:embed search.js
var searchJS []byte

//go:embed book.js
var bookJS []byte

// searchDoc is one search result.
type searchDoc struct {
	ID    int    `json:"id"`
	URL   string `json:"url"`   // page#anchor
	Page  string `json:"page"`  // the page's title
	Title string `json:"title"` // the section's
	Text  string `json:"text"`
}

var (
	headingRE    = regexp.MustCompile(`(?s)<h([1-4])[^>]*\sid="([^"]*)"[^>]*>(.*?)</h[1-4]>`)
	dropRE       = regexp.MustCompile(`(?is)<(script|style|svg|iframe)\b.*?</(?:script|style|svg|iframe)>`)
	tagRE        = regexp.MustCompile(`(?s)<[^>]*>`)
	spaceRE      = regexp.MustCompile(`\s+`)
	anchorLinkRE = regexp.MustCompile(`(?s)<a class="anchor-link"[^>]*>.*?</a>`)
)

// plainText is an HTML fragment's text.
func plainText(h string) string {
	h = dropRE.ReplaceAllString(h, " ")
	h = anchorLinkRE.ReplaceAllString(h, "")
	h = tagRE.ReplaceAllString(h, " ")
	return strings.TrimSpace(spaceRE.ReplaceAllString(html.UnescapeString(h), " "))
}

// maxDocText caps a document's text (a section with long outputs).
const maxDocText = 20000

// sectionDocs cuts a page into one document per heading (h1–h4 with an
// id): the heading and the text up to the next heading.
func sectionDocs(page, pageTitle, body string) []searchDoc {
	if i := strings.Index(body, "<body"); i >= 0 {
		body = body[i:]
	}
	ms := headingRE.FindAllStringSubmatchIndex(body, -1)
	var docs []searchDoc
	for i, m := range ms {
		end := len(body)
		if i+1 < len(ms) {
			end = ms[i+1][0]
		}
		id := html.UnescapeString(body[m[4]:m[5]])
		text := plainText(body[m[1]:end])
		if len(text) > maxDocText {
			text = text[:maxDocText]
		}
		docs = append(docs, searchDoc{URL: page + "#" + id, Page: pageTitle,
			Title: plainText(body[m[6]:m[7]]), Text: text})
	}
	return docs
}

// searchIndexJS is assets/search-index.js: the documents, numbered.
func searchIndexJS(docs []searchDoc) ([]byte, error) {
	for i := range docs {
		docs[i].ID = i
	}
	b, err := json.Marshal(docs)
	if err != nil {
		return nil, err
	}
	return append(append([]byte("window.BOOK_SEARCH_DOCS = "), b...), ";\n"...), nil
}
