package datasets_test

import (
	"fmt"
	"strings"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
)

// A student's own table: a header line, a label column, a missing value.
// ReadTableFile does the same for a file on disk (.csv, or .tsv with tabs).
func ExampleReadTable() {
	csv := `flower,petal_length,petal_width,sepal_length
setosa,1.4,0.2,5.1
setosa,1.3,0.2,4.9
versicolor,4.7,1.4,7.0
versicolor,4.5,1.5,6.4
virginica,6.0,2.5,6.3
virginica,5.1,,5.8
`
	d, err := datasets.ReadTable(strings.NewReader(csv), "flowers.csv", datasets.TableOptions{LabelColumn: "flower"})
	if err != nil {
		fmt.Println(err)
		return
	}
	n, p := d.Y.Dims()
	fmt.Println(n, "rows;", p, "columns:", d.ColNames, "; classes:", d.LabelNames)

	// PCA rejects the missing value; probabilistic PCA by EM with the missing
	// entry marginalised (the book's §2.12.4) takes it.
	fmt.Println("PCA:", (&dimred.PCA{Q: 1}).Fit(d.Y))
	ppca := &dimred.PPCA{Q: 1}
	fmt.Println("PPCA with a missing value:", ppca.FitMissing(d.Y))
	// Output:
	// 6 rows; 3 columns: [petal_length petal_width sepal_length] ; classes: [setosa versicolor virginica]
	// PCA: dimred: NaN or Inf in input: Y[5,1] = NaN
	// PPCA with a missing value: <nil>
}
