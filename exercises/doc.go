// Package exercises checks a student's answer to an exercise of the
// notebooks without showing the answer.
//
// Each exercise whose answer is a number, a vector or a matrix registers
// an Answer under its id ("1.3" is exercise 3 of chapter 1, "L1.2"
// exercise 2 of lecture 1). The reference value is computed on demand by
// the library, never printed: Check says only whether the student's value
// is right and, when it is not, why not — the shape, a constant factor
// (n against n−1, a missing square root), a flipped sign, a non-finite
// entry — so the exercise stays an exercise.
//
//	exercises.Check("1.3", myVariance)      // ✓ or ✗ with the reason
//
// The solutions themselves live apart from the questions, in each
// notebook's solutions appendix (the instructor edition).
package exercises
