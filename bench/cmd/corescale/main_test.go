package main

import (
	"bytes"
	"testing"
)

func TestCopiesCopy(t *testing.T) {
	a, b := []byte("0123456789"), make([]byte, 10)
	require := func(ok bool, msg string) {
		t.Helper()
		if !ok {
			t.Fatal(msg)
		}
	}
	copies(a, b, 3)
	require(bytes.Equal(a, b), "copies leaves b equal to a")
}

func TestChainDeterministic(t *testing.T) {
	c := chain(1000)
	if chain(1000) != c || chain(1001) == c {
		t.Fatal("chain is a function of its step count")
	}
}

func TestRunTakesTime(t *testing.T) {
	for _, k := range []kind{{"compute", 0}, {"L2", 4 << 10}} {
		for g := 1; g <= 2; g++ {
			if d := run(k, g, 0.001); d <= 0 {
				t.Fatalf("%s on %d goroutines: %v", k.name, g, d)
			}
		}
	}
}

func TestShuffleWorkDecodesEveryRow(t *testing.T) {
	w, err := loadShuffle("id BIGINT NOT NULL, name STRING, price DECIMAL(10,2), tags ARRAY<STRING>, attrs MAP<STRING, INT>, seen TIMESTAMP, active BOOLEAN",
		[]string{"../../../testdata/sample/shuffle"})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.segs) != 8 {
		t.Fatalf("%d segments, want the sample's 8 non-empty ones", len(w.segs))
	}
	for g := 1; g <= 2; g++ {
		for _, kind := range []shuffleKind{decodeMem, readDecode} {
			if _, err := w.run(g, kind); err != nil {
				t.Fatal(err)
			}
			if w.rows != 12 {
				t.Fatalf("%d goroutines decoded %d rows, want the sample's 12", g, w.rows)
			}
		}
		if _, err := w.run(g, lz4Only); err != nil {
			t.Fatal(err)
		}
	}
}
