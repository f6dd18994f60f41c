// Command editions builds the student and instructor editions of the
// notebooks (package scripts/internal/editions): the instructor edition is
// the executed notebooks with their solutions notebooks; the student
// edition leaves the solutions notebooks and the links to them out and
// clears the outputs of the exercise cells, everything else as executed.
//
// Usage (from the repository root):
//
//	go run ./scripts/editions [-notebooks notebooks] [-out build/editions]
//
// It writes out/student/notebooks/, out/instructor/notebooks/ and
// out/student.zip, out/instructor.zip (build/ is not committed), then
// checks the student edition: no solution text (each paragraph and code
// cell of the solutions notebooks), no solutions notebook or link to one,
// no output of an exercise cell. It exits 1 naming what leaked.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dimredbook/book/scripts/internal/editions"
)

func main() {
	nbdir := flag.String("notebooks", "notebooks", "folder of the executed notebooks")
	out := flag.String("out", "build/editions", "output folder")
	flag.Parse()
	if err := run(*nbdir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "editions:", err)
		os.Exit(1)
	}
}

func run(nbdir, out string) error {
	student, err := editions.Student(nbdir)
	if err != nil {
		return err
	}
	instructor, err := editions.Instructor(nbdir)
	if err != nil {
		return err
	}
	problems, err := editions.CheckStudent(student, nbdir)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "editions: student edition:", p)
		}
		return fmt.Errorf("the student edition gives away %d thing(s)", len(problems))
	}
	for name, files := range map[string][]editions.File{"student": student, "instructor": instructor} {
		if err := editions.WriteDir(filepath.Join(out, name), files); err != nil {
			return err
		}
		z, err := editions.Zip(files)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, name+".zip"), z, 0o644); err != nil {
			return err
		}
		fmt.Printf("editions: %s edition: %d notebooks in %s and %s (%d kB)\n", name, len(files),
			filepath.Join(out, name, "notebooks"), filepath.Join(out, name+".zip"), len(z)/1000)
	}
	return nil
}
