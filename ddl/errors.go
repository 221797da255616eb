package ddl

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// SyntaxError reports where a schema string stops making sense. Pos is the
// 1-based character (rune) position in Input of the offending character;
// a position one past the end means the input ended too early. It is an
// arrow.ErrInvalid (errors.Is), as arrow-go's errors for bad input are; its
// message does not say so.
type SyntaxError struct {
	Input string
	Pos   int
	Msg   string
}

func (e *SyntaxError) Error() string {
	line, col, _ := e.locate()
	if strings.ContainsRune(e.Input, '\n') {
		return fmt.Sprintf("ddl: line %d, column %d: %s", line, col, e.Msg)
	}
	return fmt.Sprintf("ddl: column %d: %s", col, e.Msg)
}

// Unwrap makes a SyntaxError an arrow.ErrInvalid.
func (e *SyntaxError) Unwrap() error { return arrow.ErrInvalid }

// Caret returns the input line holding the error and, below it, a '^' under
// the offending character, for showing to a person.
func (e *SyntaxError) Caret() string {
	_, col, text := e.locate()
	var b strings.Builder
	b.WriteString(text)
	b.WriteByte('\n')
	i := 0
	// Copy tabs so the caret lines up however the terminal expands them.
	for _, r := range text {
		if i >= col-1 {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i++
	}
	for ; i < col-1; i++ {
		b.WriteByte(' ')
	}
	b.WriteByte('^')
	return b.String()
}

// locate turns Pos into a 1-based line and column and returns that line.
func (e *SyntaxError) locate() (line, col int, text string) {
	line, col = 1, 1
	start := 0
	n := 1
	for i, r := range e.Input {
		if n == e.Pos {
			break
		}
		n++
		if r == '\n' {
			line++
			col = 1
			start = i + 1
		} else {
			col++
		}
	}
	text = e.Input[start:]
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return line, col, text
}
