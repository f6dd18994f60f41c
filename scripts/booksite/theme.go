package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// The dark theme. Chapter pages are styled by JupyterLab's CSS variables
// (--jp-…), the light theme's inlined by nbconvert; the book's own pages by
// book.css's variables (--book-…). The dark values of the --jp- variables
// are JupyterLab's own dark theme, which nbconvert ships as
// lab/static/theme-dark.css: its :root block is copied under the two
// selectors that mean "dark" — the reader's toggle (html[data-theme=dark])
// and the system's preference when the reader has not chosen light.

// rootBlockRE is the body of the theme's :root { … } rule.
var rootBlockRE = regexp.MustCompile(`(?s):root\s*\{(.*)\}`)

// darkThemeCSS returns the dark variables as CSS to append to book.css.
// path is theme-dark.css; empty means: look in Jupyter's data folders.
func darkThemeCSS(path string) ([]byte, error) {
	if path == "" {
		var err error
		if path, err = findDarkTheme(); err != nil {
			return nil, err
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("JupyterLab's dark theme: %w", err)
	}
	m := rootBlockRE.FindSubmatch(b)
	if m == nil || !strings.Contains(string(m[1]), "--jp-layout-color0") {
		return nil, fmt.Errorf("%s: no :root block with the --jp- variables", path)
	}
	vars := strings.TrimSpace(string(m[1]))
	return []byte(fmt.Sprintf(`
/* JupyterLab's dark theme variables (nbconvert's lab/static/theme-dark.css), for the dark scheme. */
:root[data-theme="dark"] {
%s
}
@media (prefers-color-scheme: dark) {
:root:not([data-theme="light"]) {
%s
}
}
`, vars, vars)), nil
}

// findDarkTheme looks for nbconvert/templates/lab/static/theme-dark.css in
// Jupyter's data folders (jupyter --paths --json), then in Debian's.
func findDarkTheme() (string, error) {
	dirs := []string{"/usr/share/jupyter", "/usr/local/share/jupyter"}
	if out, err := exec.Command("jupyter", "--paths", "--json").Output(); err == nil {
		var p struct {
			Data []string `json:"data"`
		}
		if json.Unmarshal(out, &p) == nil {
			dirs = append(p.Data, dirs...)
		}
	}
	for _, d := range dirs {
		f := filepath.Join(d, "nbconvert", "templates", "lab", "static", "theme-dark.css")
		if _, err := os.Stat(f); err == nil {
			return f, nil
		}
	}
	return "", fmt.Errorf("JupyterLab's dark theme (nbconvert's lab/static/theme-dark.css) not found in %s: run scripts/setup", strings.Join(dirs, ", "))
}
