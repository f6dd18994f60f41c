package main

import (
	"strings"
	"testing"

	"github.com/dimredbook/book/figures"
)

// Every figure of chapter 5 and of the spectral paper is shown in a
// notebook: a figure no notebook shows is an orphan, drawn and reported but
// never explained next to the derivation it illustrates (X5.2, X5.3, X5.5
// and X5.6 were). Other chapters are left to their own notebooks' checks
// (chapter 6 shows some figures through helpers the report does not map).
func TestChapter5FiguresShown(t *testing.T) {
	shown, err := notebookSections("../../notebooks/src")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range figures.Entries() {
		if e.Chapter != 0 && e.Chapter != 5 {
			continue
		}
		n++
		fn := e.Func()
		fn = fn[strings.LastIndex(fn, ".")+1:]
		s, ok := shown[fn]
		if !ok {
			s, ok = shown["id:"+e.ID]
		}
		if !ok {
			t.Errorf("figure %s (%s) is shown in no notebook", e.ID, fn)
			continue
		}
		if !strings.HasPrefix(s.Notebook, "05-") {
			t.Errorf("figure %s is shown in %s, not in the chapter 5 notebook", e.ID, s.Notebook)
		}
	}
	if n == 0 {
		t.Fatal("no chapter 5 or paper figures registered")
	}
}
