package dimred

import "math"

// umapPow is x^y for the SGD epochs of UMAP (d² to the power b or b − 1),
// computed as 2^(y·log₂ x) with two table-driven kernels and no division,
// in the same operations on every processor:
//
//   - log₂ x = e + log₂ c_i + log₂(1 + r) with x = 2^e·m, m ∈ [1, 2), c_i
//     the centre of m's interval among 256 equal ones (a table of 1/c_i and
//     log₂ c_i), r = m/c_i − 1 (|r| ≤ 1/512) and ln(1 + r) by its Taylor
//     series to r⁵;
//   - 2^t = 2^(k/64)·2^f with k = round(64t), |f| ≤ 1/128, a table of
//     2^(j/64) for j = 0, …, 63 and exp(f ln 2) by its Taylor series to
//     degree 5.
//
// The polynomials are evaluated by Estrin's scheme and the rounding of 64t
// by adding and subtracting 1.5·2⁵², which keeps the chain of dependent
// operations short: the next sample's distance waits for this step.
// Its relative error is below 2e-14 for |y log₂ x| ≤ 87 (tested against
// math.Pow; the rounding of t = y log₂ x alone costs up to ln 2·ulp(t)),
// far below the steps' noise; the point is the speed: it is the inner
// operation of every attractive and repulsive sample. Arguments outside
// the kernels' range (x zero, negative, Inf or NaN, |y log₂ x| ≥ 1000)
// take detPow; a subnormal x is scaled by 2⁵⁴ into the kernels' range
// (detPow's math.Log is wrong there on amd64), its 2^t for |t| ≥ 1000
// taken by detExp. Every product is converted explicitly, which forbids
// the compiler to fuse it with the following addition (Go spec,
// "Floating-point operators"), so the result is the same with any GOAMD64
// level and on any amd64 processor.
func umapPow(x, y float64) float64 {
	bits := math.Float64bits(x)
	ex := int(bits>>52) - 1023 // x > 0: no sign bit
	if ex <= -1023 || ex >= 1024 {
		if bits-1 >= 1<<52-1 {
			return detPow(x, y) // zero, Inf, NaN, negative
		}
		// x a positive subnormal: math.Log, and so detPow, does not
		// normalise those on amd64 (Go issue 56600: it gives −709.09 for
		// log(2^−1074), not −744.44), so x·2⁵⁴, a normal number, goes
		// through the kernel with its exponent lowered by 54.
		bits = math.Float64bits(x * 0x1p54)
		ex = int(bits>>52) - 1023 - 54
	}
	i := (bits >> (52 - 8)) & 255
	m := math.Float64frombits(bits&(1<<52-1) | 1023<<52)
	r := float64(m*powInvC[i]) - 1
	// ln(1 + r) = r·(1 − r/2 + r²/3 − r³/4 + r⁴/5).
	r2 := float64(r * r)
	pa := 1 + float64(r*-0.5)
	pb := 1.0/3 + float64(r*-0.25)
	pc := pb + float64(r2*(1.0/5))
	p := pa + float64(r2*pc)
	l2 := (float64(ex) + powLog2C[i]) + float64(float64(r*p)*math.Log2E)
	t := float64(y * l2)
	if !(t > -1000 && t < 1000) {
		if ex < -1022 { // subnormal x: 2^t from the kernel's log₂ x
			return detExp(float64(t * math.Ln2))
		}
		return detPow(x, y)
	}
	// k = round(64t) (to even): adding 1.5·2⁵² leaves k in the low bits.
	const shift = 0x1.8p52
	z := float64(t*64) + shift
	k := int(int64(math.Float64bits(z)) - int64(math.Float64bits(shift)))
	u := float64((t - float64((z-shift)*(1.0/64))) * math.Ln2) // |u| ≤ ln 2 / 128
	// exp(u) = (1 + u) + u²·((1/2 + u/6) + u²·(1/24 + u/120)).
	u2 := float64(u * u)
	qa := 1 + u
	qb := 0.5 + float64(u*(1.0/6))
	qc := 1.0/24 + float64(u*(1.0/120))
	q := qa + float64(u2*(qb+float64(u2*qc)))
	return float64(powExp2[k&63]*q) * math.Float64frombits(uint64((k>>6)+1023)<<52)
}

// The tables of umapPow: 1/c_i and log₂ c_i for the centres
// c_i = 1 + (i + ½)/256 of [1, 2)'s 256 intervals, and 2^(j/64). They are
// built from correctly rounded divisions, math.Log (the same on every amd64
// processor) and detExp.
var powInvC, powLog2C, powExp2 = powTables()

func powTables() (invC, log2C [256]float64, exp2 [64]float64) {
	for i := range invC {
		c := 1 + (float64(i)+0.5)/256
		invC[i] = 1 / c
		// log₂ of the c the kernel divides by, 1/invC, so that the table
		// and the reduction r = m·invC − 1 match.
		log2C[i] = -math.Log(invC[i]) / math.Ln2
	}
	for j := range exp2 {
		exp2[j] = detExp(float64(j) / 64 * math.Ln2)
	}
	return
}
