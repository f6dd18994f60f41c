package kernel

import "testing"

// Setting a clone's parameters leaves the original as it was, through a
// Sum's pointer terms.
func TestCloneDeep(t *testing.T) {
	orig := Sum{&RBF{Variance: 1, LengthScale: 2}, &Bias{Variance: 0.5}}
	var k ParamKernel = orig
	c := Clone(k)
	c.SetParams([]float64{3, 3, 3})
	if g := orig[0].(*RBF); g.Variance != 1 || g.LengthScale != 2 {
		t.Errorf("original RBF changed to %+v", *g)
	}
	if b := orig[1].(*Bias); b.Variance != 0.5 {
		t.Errorf("original bias changed to %+v", *b)
	}
	got := c.Params(nil)
	if len(got) != 3 || got[0] != 3 || got[2] != 3 {
		t.Errorf("clone's params = %v, want [3 3 3]", got)
	}
	if r := Clone(RBF{Variance: 2, LengthScale: 3}); r != (RBF{Variance: 2, LengthScale: 3}) {
		t.Errorf("Clone of a value kernel = %+v", r)
	}
}

// A nil interface clones to nil.
func TestCloneNil(t *testing.T) {
	var k ParamKernel
	if c := Clone(k); c != nil {
		t.Errorf("Clone(nil) = %v", c)
	}
}
