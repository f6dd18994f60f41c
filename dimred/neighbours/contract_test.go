package neighbours

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"
)

// GeodesicDistances and ConnectedComponents of &linalg.CSR{N: 3} (no
// RowPtr) indexed out of range; a malformed CSR now panics with the
// package's message.
func TestGraphFuncsMalformedCSR(t *testing.T) {
	for name, f := range map[string]func(g *linalg.CSR){
		"GeodesicDistances":   func(g *linalg.CSR) { GeodesicDistances(g) },
		"ConnectedComponents": func(g *linalg.CSR) { ConnectedComponents(g) },
	} {
		msg := func() (msg string) {
			defer func() {
				if r := recover(); r != nil {
					msg = fmt.Sprint(r)
				}
			}()
			f(&linalg.CSR{N: 3})
			return ""
		}()
		if !strings.HasPrefix(msg, "dimred: CSR") {
			t.Errorf("%s(&CSR{N: 3}): panic %q, want the package's CSR message", name, msg)
		}
	}
}
