package testgen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The project's test command runs every test that starts goroutines under
// the race detector, and runs the suite for GOARCH=386: its race pattern
// matches each Test function whose body has a go statement, calls a
// WaitGroup's Go or t.Parallel, and the stream suites.
func TestScriptRunsRaceAndGOARCH386(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	script, err := os.ReadFile(filepath.Join(root, "scripts", "test"))
	require.NoError(t, err)
	text := string(script)

	m := regexp.MustCompile(`(?m)^race_tests='([^']+)'$`).FindStringSubmatch(text)
	require.NotNil(t, m, "scripts/test sets no race_tests pattern")
	require.Contains(t, text, `go test -race -count=1 -run "$race_tests" ./...`)
	require.Contains(t, text, "CGO_ENABLED=0 GOARCH=386 go vet ./...")
	require.Contains(t, text, "CGO_ENABLED=0 GOARCH=386 ROWBRIDGE_SKIP_INTEROP=1 go test -count=1 ./...")
	race := regexp.MustCompile(m[1])

	concurrent := concurrentTests(t, root)
	require.NotEmpty(t, concurrent, "no test starts a goroutine: the scan is broken")
	t.Logf("tests that start goroutines: %v", concurrent)
	for _, name := range append(concurrent, "TestStream", "TestStreamVeloxFlavor") {
		require.True(t, race.MatchString(name), "scripts/test's race pattern %q misses %s", m[1], name)
	}
}

// concurrentTests lists the names of the module's Test functions
// whose bodies start goroutines.
func concurrentTests(t *testing.T, root string) []string {
	var names []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			if startsGoroutines(fn.Body) {
				names = append(names, fn.Name.Name)
			}
		}
		return nil
	})
	require.NoError(t, err)
	return names
}

func startsGoroutines(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			found = true
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Parallel" && len(n.Args) == 0 || sel.Sel.Name == "Go" && len(n.Args) == 1) {
				found = true
			}
		}
		return !found
	})
	return found
}
