package figures

import (
	"reflect"
	"sync"
)

// drawn memoises figure functions for this test process: every figure
// function is deterministic (fixed seeds, no clock), so drawing it a second
// time — once in TestAllRegisteredFiguresRender, once in its own test —
// checks nothing more and, for the oil fits (X6.1's GTM, Fig 2.4's EM),
// costs a refit.
var drawn sync.Map // function pointer → *drawing

type drawing struct {
	once sync.Once
	f    *Figure
	err  error
}

// drawOnce returns make's figure and error, calling make at most once per
// test process. Callers must not modify the figure.
func drawOnce(make func() (*Figure, error)) (*Figure, error) {
	v, _ := drawn.LoadOrStore(reflect.ValueOf(make).Pointer(), &drawing{})
	d := v.(*drawing)
	d.once.Do(func() { d.f, d.err = make() })
	return d.f, d.err
}
