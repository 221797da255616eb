package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

func TestTopHelpListsEveryCommandAndExamples(t *testing.T) {
	names := commandNames()
	require.Subset(t, names, []string{"decode", "encode", "demo"})
	for _, args := range [][]string{{"help"}, {"--help"}, {"-help"}, {"-h"}, {"help", "-h"}} {
		out, stderr, code := cli(t, nil, args...)
		require.Equal(t, 0, code, "%v: %s", args, stderr)
		require.Empty(t, stderr)
		text := string(out)
		commandsPart, examplesPart, ok := strings.Cut(text, "\nExamples")
		require.True(t, ok, "%v prints examples:\n%s", args, text)
		for _, n := range names {
			require.Contains(t, commandsPart, "\n  "+n+" ", "%v lists %s", args, n)
			if ex := commands[n].examples; len(ex) > 0 {
				require.Contains(t, examplesPart, "\n  "+ex[0]+"\n")
			}
		}
	}
}

// allCommands lists every command, the subcommands of a group after it.
func allCommands() []*command {
	var all []*command
	for _, n := range commandNames() {
		c := commands[n]
		all = append(all, c)
		for _, sub := range subNames(c) {
			all = append(all, c.subs[sub])
		}
	}
	return all
}

func TestCommandHelpHasUsageFlagsAndExamples(t *testing.T) {
	all := allCommands()
	require.Subset(t, func() []string {
		var names []string
		for _, c := range all {
			names = append(names, c.name)
		}
		return names
	}(), []string{"shuffle", "shuffle ls", "shuffle decode", "shuffle write"})
	for _, c := range all {
		name := c.name
		words := strings.Fields(name)
		var want string
		for _, args := range [][]string{slices.Concat(words, []string{"--help"}), slices.Concat(words, []string{"-h"}), slices.Concat([]string{"help"}, words)} {
			out, stderr, code := cli(t, nil, args...)
			require.Equal(t, 0, code, "%v: %s", args, stderr)
			require.Empty(t, stderr)
			if want == "" {
				want = string(out)
			}
			require.Equal(t, want, string(out), "%v prints the same help", args)
		}
		require.True(t, strings.HasPrefix(want, "Usage: rowbridge "+name+" ") || strings.HasPrefix(want, "Usage: rowbridge "+name+"\n"), want)
		head, examples, ok := strings.Cut(want, "\nExamples:\n")
		require.True(t, ok, "%s -h has examples:\n%s", name, want)
		require.Contains(t, head, "\nFlags:")
		if c.subs != nil {
			require.Contains(t, head, "\nCommands:\n")
			for sub, sc := range c.subs {
				require.Contains(t, head, "\n  "+sub+" ", "%s -h lists %s", name, sub)
				require.Equal(t, name+" "+sub, sc.name)
			}
		} else {
			fs := flag.NewFlagSet(name, flag.ContinueOnError)
			c.flags(fs)
			fs.VisitAll(func(f *flag.Flag) {
				require.Contains(t, head, "\n  -"+f.Name, "%s -h lists -%s", name, f.Name)
				require.Contains(t, c.usage, "-"+f.Name, "the %s usage line names -%s", name, f.Name)
			})
		}
		lines := strings.Split(strings.TrimSuffix(examples, "\n"), "\n")
		require.GreaterOrEqual(t, len(lines), 2, name)
		require.LessOrEqual(t, len(lines), 5, name)
		for i, l := range lines {
			require.Equal(t, "  "+c.examples[i], l)
			require.True(t, strings.HasPrefix(l, "  rowbridge "), l)
		}
	}
}

func TestHelpOfUnknownCommand(t *testing.T) {
	out, stderr, code := cli(t, nil, "help", "frobnicate")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Equal(t, "rowbridge help: unknown command \"frobnicate\" (run 'rowbridge help')\n", stderr)

	out, stderr, code = cli(t, nil, "help", "shuffle", "cat")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Equal(t, "rowbridge help: unknown command \"shuffle cat\" (run 'rowbridge help shuffle')\n", stderr)
}

// TestExamplesRun runs the examples of decode, encode, demo and the
// shuffle commands from the repository root, as a user would; those with
// redirections are skipped, and of the shuffle commands those that name
// no testdata; pipelines of rowbridge stages ending in cmp are run.
func TestExamplesRun(t *testing.T) {
	sampleFile := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata/sample", name))
		require.NoError(t, err)
		return b
	}
	// What some examples must write exactly.
	wantOutput := map[string]string{
		commands["decode"].examples[0]: "sample.jsonl",
		commands["encode"].examples[0]: "compactrow-velox-lz4.bin",
	}
	t.Chdir("../..")
	ran := 0
	shuffleCommands := []*command{commands["shuffle"], commands["shuffle"].subs["ls"], commands["shuffle"].subs["decode"], commands["shuffle"].subs["write"]}
	for _, c := range append([]*command{commands["decode"], commands["encode"], commands["demo"]}, shuffleCommands...) {
		for _, ex := range c.examples {
			line, _, _ := strings.Cut(ex, "   #")
			if strings.ContainsAny(line, "<>") || strings.HasPrefix(c.name, "shuffle") && !strings.Contains(line, "testdata/") {
				continue
			}
			t.Run(line, func(t *testing.T) {
				dir := t.TempDir()
				var prev []byte
				for _, stage := range strings.Split(line, " | ") {
					words := shellWords(t, stage)
					switch {
					case words[0] == "cmp" && len(words) == 3 && words[1] == "-":
						require.Equal(t, sampleFile(strings.TrimPrefix(words[2], "testdata/sample/")), prev, stage)
						continue
					case words[0] != "rowbridge":
						t.Fatalf("cannot run %q", stage)
					}
					args := words[1:]
					outFile := ""
					for i := range args {
						if args[i] == "-o" && i+1 < len(args) {
							outFile = filepath.Join(dir, args[i+1])
							args[i+1] = outFile
						}
					}
					stdout, stderr, code := cli(t, prev, args...)
					require.Equal(t, 0, code, "%s: %s", stage, stderr)
					require.Empty(t, stderr)
					prev = stdout
					if st, err := os.Stat(outFile); err == nil && st.IsDir() {
						// shuffle write's -o DIR: the map output must open and verify.
						set, err := sparkshuffle.Open(outFile)
						require.NoError(t, err, stage)
						require.Len(t, set.Shuffles(), 1, stage)
						require.NoError(t, set.Shuffles()[0].VerifyChecksums(), stage)
						require.Empty(t, stdout)
						continue
					}
					if outFile != "" {
						require.Empty(t, stdout)
						b, err := os.ReadFile(outFile)
						require.NoError(t, err)
						prev = b
					}
					require.NotEmpty(t, prev, stage)
				}
				if f, ok := wantOutput[ex]; ok {
					require.Equal(t, sampleFile(f), prev)
				}
			})
			ran++
		}
	}
	require.GreaterOrEqual(t, ran, 12)
}

// shellWords splits a command line at spaces, keeping 'single-quoted'
// words whole; that is all the examples use.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if rest, ok := strings.CutPrefix(s, "'"); ok {
			word, after, closed := strings.Cut(rest, "'")
			require.True(t, closed, "unclosed quote in %q", s)
			words = append(words, word)
			s = after
			continue
		}
		word, after, _ := strings.Cut(s, " ")
		words = append(words, word)
		s = after
	}
	return words
}
