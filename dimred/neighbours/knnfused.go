package neighbours

import (
	"math"
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/vec"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// useFusedKNN selects knnFused for knnBrute: on processors with one of
// vec.DistStrips' vector kernels (AVX-512 or AVX2, bit-identical to each
// other and to the plain-Go one, which elsewhere makes knnFused too slow
// to be the default). The tests run both knnFused and knnBruteGemm on
// every processor to check that they agree.
var useFusedKNN = vec.HasDistKernel()

// fusedBlockRows is knnFused's block of query rows: 16 strips of
// vec.DistRows = 14 points, and 14 strips of vec.DistCols = 16, so that
// every block starts on a column strip.
const fusedBlockRows = 224

// knnFused is knnBrute with the squared distances and the tests against
// the lists fused: vec.DistStrips forms 14×16 blocks of the expansion
// ‖y_i‖² + ‖y_j‖² − 2 y_iᵀ y_j in registers and reports only the entries
// at or below the current worst of the row's or the column's list, so
// neither a matrix of inner products nor a scan of it is kept. As in
// knnBruteGemm, the rows are taken in blocks of fusedBlockRows, each
// against the columns from the block's first row on (the diagonal block,
// whose pairs feed the rows' lists both ways, then chunks of columns
// beyond it, whose pairs feed the rows' and the columns' lists); the
// chunks of a block run in parallel, each goroutine owning its chunks'
// column lists and keeping private lists for the block's rows, which are
// merged into the rows' lists when the block is done. Candidates reach a
// list in batches (push, flush), not one insertion each. It keeps a packed
// copy of the points (n·p values, in strips of 16) and no n-wide block of
// products.
//
// The result is knnBruteGemm's bit for bit. A list's content after any
// sequence of offers is a function of the set of candidates offered (the
// k best by (expansion, index) and those within slack of the k-th), not
// of their order; a candidate is withheld here only when it lies beyond a
// bound the list's worst never exceeds afterwards, and merging a private
// list, which drops only what its own (larger) worst excludes, offers
// everything that can matter. The expansion's sums differ from GemmNT's
// in their last bits (another order of summation), but both lie within
// the bound the slack allows for, and the final choice is made on the
// directly computed squared distances (finishLists), so the neighbours
// and their distances do not depend on which expansion found them — the
// argument that already makes the kd-tree and the brute force agree.
func knnFused(ph *progress.Phase, yd *mat.Dense, k int, nb *Neighbours) {
	const R, C = vec.DistRows, vec.DistCols
	n, p := yd.Dims()
	yr := yd.RawMatrix()
	sq := linalg.RowSquaredNorms(yd)
	lists := newLists(sq, p, k)
	ns := (n + C - 1) / C // column strips
	// Every point packed in strips of C ([ns][p][C]), with its squared
	// norm and its list's current worst; the padding beyond n has NaN
	// norms and is never reported.
	bp := make([]float64, ns*p*C)
	sqb := make([]float64, ns*C)
	thrb := make([]float64, ns*C)
	for j := range sqb {
		sqb[j], thrb[j] = math.NaN(), math.NaN()
		if j < n {
			sqb[j], thrb[j] = sq[j], math.Inf(1)
		}
	}
	parallel.ForWork(ns, n*p, func(lo, hi int) {
		for s := lo; s < hi; s++ {
			bs := bp[s*p*C : (s+1)*p*C]
			for c := 0; c < C && s*C+c < n; c++ {
				row := yr.Data[(s*C+c)*yr.Stride:][:p]
				for l, v := range row {
					bs[l*C+c] = v
				}
			}
		}
	})
	// The diagonal block's pairs feed only the rows' lists (each pair
	// reaches both of its points as a row): its column thresholds are −∞.
	never := make([]float64, fusedBlockRows)
	for i := range never {
		never[i] = math.Inf(-1)
	}
	// Chunks of cs column strips, about 384 KB of packed points, stay in
	// a core's L2 while the block's row strips pass over them.
	cs := min(256, max(4, 3072/p))
	ap := make([]float64, fusedBlockRows*p)
	sqa := make([]float64, fusedBlockRows)
	nw := runtime.GOMAXPROCS(0)
	ws := make([]fusedWorker, nw)
	mw := max(cs, fusedBlockRows/C) // the strips of a task
	for t := range ws {
		ws[t] = fusedWorker{
			d:    make([]float64, mw*R*C),
			mask: make([]uint16, mw*R),
			priv: make([]nbList, fusedBlockRows),
		}
	}
	for r0 := 0; r0 < n; r0 += fusedBlockRows {
		r1 := min(n, r0+fusedBlockRows)
		if ph.Add(r1-r0) != nil {
			return
		}
		h := r1 - r0
		na := (h + R - 1) / R // row strips
		clear(ap)
		for ii := 0; ii < na*R; ii++ {
			sqa[ii] = math.NaN()
			if ii >= h {
				continue
			}
			sqa[ii] = sq[r0+ii]
			as := ap[(ii/R)*p*R:]
			for l, v := range yr.Data[(r0+ii)*yr.Stride:][:p] {
				as[l*R+ii%R] = v
			}
		}
		// Task 0 is the diagonal block, tasks 1 … the chunks beyond it
		// (r1 is a multiple of C unless r1 = n).
		sd := r1 / C
		nt := 1
		if r1 < n {
			nt += (ns - sd + cs - 1) / cs
		}
		w := min(nw, nt)
		if h*(n-r0)*p < parallel.Grain {
			w = 1
		}
		for t := 0; t < w; t++ {
			for ii := 0; ii < h; ii++ {
				l := &lists[r0+ii]
				ws[t].priv[ii] = nbList{c: ws[t].priv[ii].c[:0], worst: l.worst, slack: l.slack, pend: ws[t].priv[ii].pend[:0]}
			}
		}
		var next atomic.Int64
		parallel.Do(w, func(t int) {
			wk := &ws[t]
			for {
				task := int(next.Add(1)) - 1
				if task >= nt {
					return
				}
				s0, s1, thr := r0/C, (r1+C-1)/C, never
				if task > 0 {
					s0 = sd + (task-1)*cs
					s1 = min(ns, s0+cs)
					thr = thrb[s0*C : s1*C]
				}
				m := s1 - s0
				for as := 0; as < na; as++ {
					for r := range wk.thra {
						wk.thra[r] = math.NaN()
						if ii := as*R + r; ii < h {
							wk.thra[r] = wk.priv[ii].worst
						}
					}
					vec.DistStrips(ap[as*p*R:], bp[s0*p*C:], p, m, sqa[as*R:], wk.thra[:], sqb[s0*C:s1*C], thr[:m*C], wk.d, wk.mask)
					for s := 0; s < m; s++ {
						for r, bm := range wk.mask[s*R : (s+1)*R] {
							if bm == 0 {
								continue
							}
							ii := as*R + r
							i := r0 + ii
							pl := &wk.priv[ii]
							dr := wk.d[(s*R+r)*C:][:C]
							for ; bm != 0; bm &= bm - 1 {
								c := bits.TrailingZeros16(bm)
								j, d := (s0+s)*C+c, dr[c]
								// d ≤ worst unclamped is the same test as
								// clamped (worst ≥ 0).
								if d <= pl.worst && j != i {
									pl.push(clampZero(d), j, k, &wk.scratch)
								}
								if task == 0 {
									continue
								}
								if lj := &lists[j]; d <= lj.worst {
									lj.push(clampZero(d), i, k, &wk.scratch)
									thrb[j] = lj.worst
								}
							}
						}
					}
				}
			}
		})
		// The block's rows are done: merge each row's private lists (and
		// its pending candidates as a column) into its list, for good.
		parallel.ForWork(h, h*k*w*32, func(lo, hi int) {
			var scratch []nbCand
			for ii := lo; ii < hi; ii++ {
				l := &lists[r0+ii]
				for t := 0; t < w; t++ {
					pl := &ws[t].priv[ii]
					pl.flush(k, &scratch)
					for _, c := range pl.c {
						if c.d <= l.worst {
							l.push(c.d, c.j, k, &scratch)
						}
					}
				}
				l.flush(k, &scratch)
				l.pend = nil
			}
		})
	}
	finishLists(yd, lists, k, nb)
}

// fusedWorker is one goroutine's state in knnFused: the blocks of
// distances and masks of vec.DistStrips, the thresholds of the row strip
// in hand, and private lists for the rows of the current block.
type fusedWorker struct {
	d    []float64
	mask []uint16
	thra [vec.DistRows]float64
	priv []nbList
	// scratch is push's merge buffer.
	scratch []nbCand
}

// clampZero is max(d, 0) as knnBruteGemm clamps: a negative expansion
// (round-off) becomes +0; −0 stays.
func clampZero(d float64) float64 {
	if d < 0 {
		return 0
	}
	return d
}

// pushBatch is the number of candidates a list holds back before
// merging them (push, flush).
func pushBatch(k int) int { return min(k, 32) }

// push adds (d, j) to the list's pending candidates, merging them into
// the list once pushBatch(k) are held: the list's content after a flush is
// what offering them one by one gives (see knnFused), at a sort of the
// batch and one merge instead of an insertion each. The caller tests d
// against worst first; worst changes only at a flush, so until then it is
// an upper bound on the list's worst, and candidates above the true
// worst may be pushed (and are dropped at the flush).
func (l *nbList) push(d float64, j, k int, scratch *[]nbCand) {
	if l.pend == nil {
		l.pend = make([]nbCand, 0, pushBatch(k))
	}
	l.pend = append(l.pend, nbCand{d, j})
	if len(l.pend) >= pushBatch(k) {
		l.flush(k, scratch)
	}
}

// flush merges the pending candidates into the list: the k best by
// (distance, index), then those within slack of the k-th, as offer keeps.
func (l *nbList) flush(k int, scratch *[]nbCand) {
	if len(l.pend) == 0 {
		return
	}
	p := l.pend
	// Insertion sort: the batch is short (pushBatch ≤ 32), and the
	// candidates are distinct (one per point), so any sort gives this
	// order.
	for a := 1; a < len(p); a++ {
		x := p[a]
		b := a
		for ; b > 0 && x.less(p[b-1]); b-- {
			p[b] = p[b-1]
		}
		p[b] = x
	}
	m := (*scratch)[:0]
	c := l.c
	for len(c) > 0 && len(p) > 0 {
		if p[0].less(c[0]) {
			m, p = append(m, p[0]), p[1:]
		} else {
			m, c = append(m, c[0]), c[1:]
		}
	}
	m = append(append(m, c...), p...)
	if len(m) >= k {
		l.worst = m[k-1].d + l.slack
		e := len(m)
		for e > k && m[e-1].d > l.worst {
			e--
		}
		m = m[:e]
	}
	l.c = append(l.c[:0], m...)
	l.pend = l.pend[:0]
	*scratch = m
}
