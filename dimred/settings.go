package dimred

import (
	"fmt"
	"math"
	"reflect"
)

// checkQ is the one latent-dimension rule of every Fit (package doc,
// "Conventions"): a Q below 1 is a programmer error and panics; a Q too
// large for the number of points — fewer than minN, which is q + 1 for
// most methods (n points span at most n − 1 dimensions about their mean),
// q for KernelPCA and MVU (whose n×n kernel has rank up to n) and q + 2 for
// the spectral methods that discard a trivial eigenvector — is a property
// of the data size and an error wrapping ErrTooFewPoints.
// A Q too large for the number of features p, where the method needs
// q < p or q ≤ p, is checked by the method and panics: p is fixed by the
// caller's choice of features, n by the sample.
func checkQ(method string, q, n, minN int) error {
	if q < 1 {
		panic(fmt.Sprintf("dimred: %s.Q = %d must be positive", method, q))
	}
	if n < minN {
		return fmt.Errorf("%w: %s with Q = %d needs n ≥ %d points, have %d", ErrTooFewPoints, method, q, minN, n)
	}
	return nil
}

// checkSettings is the one rule for impossible settings (package doc,
// "Conventions"), run at the top of every Fit on the model's exported
// fields, and on those of the settings structs they point to (Eigen
// *linalg.EigenSettings, ...): a float64 setting that is NaN, or an int
// setting that is negative, is a programmer error and panics naming the
// field — never reinterpreted as a default. Method-specific bounds (Q ≥ 1,
// a positive length scale, ...) are checked by the method.
func checkSettings(method string, model any) {
	v := reflect.ValueOf(model)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("dimred: checkSettings of %T", model))
	}
	checkFields(method, v.Elem(), true)
}

func checkFields(prefix string, v reflect.Value, deep bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		f := v.Field(i)
		name := prefix + "." + sf.Name
		switch f.Kind() {
		case reflect.Float64:
			if math.IsNaN(f.Float()) {
				panic(fmt.Sprintf("dimred: %s = NaN is not a setting", name))
			}
		case reflect.Int:
			if f.Int() < 0 {
				panic(fmt.Sprintf("dimred: %s = %d must not be negative", name, f.Int()))
			}
		case reflect.Pointer:
			if deep && !f.IsNil() && f.Elem().Kind() == reflect.Struct {
				checkFields(name, f.Elem(), false)
			}
		}
	}
}
