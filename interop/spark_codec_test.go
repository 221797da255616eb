package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/snappy"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/stretchr/testify/require"
)

// The Java libraries Spark compresses with, as Debian packages them
// (openjdk-17-jdk-headless liblz4-java libsnappy-java libzstd-jni-java
// libcompress-lzf-java; scripts/test installs them). Their JNI libraries
// come with the packages and load from the JVM's default library path.
const javaJarDir = "/usr/share/java"

var javaJars = []string{"lz4-java.jar", "snappy-java.jar", "zstd-jni.jar", "compress-lzf.jar"}

// requireJava compiles the Java programs in java/ into a temporary directory
// and returns the java command and classpath. As with Node, only
// ROWBRIDGE_SKIP_INTEROP=1 turns a missing peer into a skip.
func requireJava(t *testing.T) (java, classpath string) {
	t.Helper()
	if os.Getenv("ROWBRIDGE_SKIP_INTEROP") == "1" {
		t.Skip("ROWBRIDGE_SKIP_INTEROP=1")
	}
	const install = "install openjdk-17-jdk-headless liblz4-java libsnappy-java libzstd-jni-java libcompress-lzf-java (scripts/test does), or set ROWBRIDGE_SKIP_INTEROP=1"
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Fatalf("javac not found (%v): %s", err, install)
	}
	if java, err = exec.LookPath("java"); err != nil {
		t.Fatalf("java not found (%v): %s", err, install)
	}
	cp := make([]string, 0, len(javaJars)+1)
	for _, jar := range javaJars {
		p := filepath.Join(javaJarDir, jar)
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s is missing: %s", p, install)
		}
		cp = append(cp, p)
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "java")
	src, err := filepath.Glob(filepath.Join(dir, "*.java"))
	require.NoError(t, err)
	classes := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, javac, append([]string{"-d", classes, "-cp", strings.Join(cp, ":")}, src...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	return java, strings.Join(append(cp, classes), ":")
}

// javaJob is one line of SparkCodecs' manifest.
type javaJob struct {
	op, codec string
	block     int // write only
	in, out   string
}

// runJava runs every job in one JVM and returns each job's result line
// ("ok" or "error ...").
func runJava(t *testing.T, java, classpath, dir string, jobs []javaJob) []string {
	t.Helper()
	var m strings.Builder
	for _, j := range jobs {
		if j.op == "write" {
			fmt.Fprintf(&m, "write\t%s\t%d\t%s\t%s\n", j.codec, j.block, j.in, j.out)
		} else {
			fmt.Fprintf(&m, "read\t%s\t%s\t%s\n", j.codec, j.in, j.out)
		}
	}
	manifest := filepath.Join(dir, "manifest.tsv")
	require.NoError(t, os.WriteFile(manifest, []byte(m.String()), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, java, "-cp", classpath, "SparkCodecs", manifest)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("java SparkCodecs: %v\n%s", err, stderr.String())
	}
	t.Logf("java SparkCodecs, %d jobs: %v (%s)", len(jobs), time.Since(start).Round(time.Millisecond), strings.TrimSpace(stderr.String()))
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, len(jobs), "one result line per job")
	return lines
}

// codecData are the inputs each codec and block size is tried on.
type codecData struct {
	name string
	raw  []byte
	rows [][]byte // the records in raw, when it is a Spark-framed row stream
}

func sparkCodecInputs() []codecData {
	rng := rand.New(rand.NewPCG(42, 8))
	// Spark-framed records of 0 to 320 bytes, so rows and size prefixes
	// straddle blocks of every size tried.
	var rowStream []byte
	var rows [][]byte
	for i := range 600 {
		row := make([]byte, 8*rng.IntN(41))
		for j := range row {
			if rng.IntN(3) == 0 {
				row[j] = byte(rng.Uint32())
			} else {
				row[j] = byte(i + j/8)
			}
		}
		rows = append(rows, row)
		rowStream = binary.BigEndian.AppendUint32(rowStream, uint32(len(row)))
		rowStream = append(rowStream, row...)
	}
	// SparkPlan.getByteArrayRdd's collected rows: records, then -1.
	var collected []byte
	for _, row := range rows[:40] {
		collected = binary.BigEndian.AppendUint32(collected, uint32(len(row)))
		collected = append(collected, row...)
	}
	collected = append(collected, 0xff, 0xff, 0xff, 0xff)
	var text []byte
	for i := 0; len(text) < 90000; i++ {
		text = fmt.Appendf(text, "row %d of the shuffle, partition %d, value %x\n", i, i%7, i*i)
	}
	random := make([]byte, 40000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	return []codecData{
		{name: "rows", raw: rowStream, rows: rows},
		{name: "collected", raw: collected},
		{name: "text", raw: text},
		{name: "random", raw: random},
		{name: "empty", raw: nil},
	}
}

// sparkBlockSizes are the block sizes tried; each codec takes what its
// library allows (snappy-java raises sizes under 1 KiB to 1 KiB, LZF
// chunks hold at most 65535 bytes, zstd-jni's is a buffer size).
var sparkBlockSizes = []int{64, 1 << 10, 32 << 10, 64 << 10}

func goBlockOpts(c framing.Codec, block int) []framing.StreamOption {
	switch c {
	case framing.Snappy:
		return []framing.StreamOption{framing.WithBlockSize(max(block, 1<<10))}
	case framing.LZF:
		return []framing.StreamOption{framing.WithBlockSize(min(block, 0xFFFF))}
	case framing.Zstd:
		return nil
	}
	return []framing.StreamOption{framing.WithBlockSize(block)}
}

// javaBlock is the size given to the Java library. snappy-java 1.1.8.3
// documents raising sizes under 1 KiB to 1 KiB, but it raises only its
// output buffer and fails with an ArrayIndexOutOfBoundsException on the
// first block (so such a Spark setting cannot run), hence 1 KiB here too.
func javaBlock(c framing.Codec, block int) int {
	switch c {
	case framing.LZF:
		return min(block, 0xFFFF)
	case framing.Snappy:
		return max(block, 1<<10)
	}
	return block
}

func goCompress(t *testing.T, c framing.Codec, raw []byte, opts ...framing.StreamOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := framing.NewStreamWriter(&buf, c, opts...)
	require.NoError(t, err)
	for off := 0; off < len(raw); off += 4099 {
		_, err := w.Write(raw[off:min(len(raw), off+4099)])
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func goDecompress(t *testing.T, c framing.Codec, stream []byte) []byte {
	t.Helper()
	r, err := framing.NewStreamReader(bufio.NewReaderSize(bytes.NewReader(stream), 16), c)
	require.NoError(t, err)
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	return got
}

// TestSparkCodecsJava checks rowbridge's stream codecs against the Java
// libraries Spark uses, configured as Spark configures them, in one JVM:
// every codec at every block size on rows, collected rows, text, random
// bytes and nothing; Java's streams decode in Go and Go's in Java, byte
// for byte, alone and concatenated; both write the same block structure.
func TestSparkCodecsJava(t *testing.T) {
	java, classpath := requireJava(t)
	dir := t.TempDir()
	inputs := sparkCodecInputs()
	codecs := []framing.Codec{framing.LZ4, framing.Snappy, framing.Zstd, framing.LZF}
	path := func(parts ...any) string { return filepath.Join(dir, fmt.Sprint(parts...)) }
	for _, in := range inputs {
		require.NoError(t, os.WriteFile(path(in.name, ".raw"), in.raw, 0o644))
	}
	var jobs []javaJob
	var wantJava [][]byte // what each read job must produce
	for _, c := range codecs {
		for _, bs := range sparkBlockSizes {
			var concat, concatRaw []byte
			for _, in := range inputs {
				base := fmt.Sprintf("%v-%d-%s", c, bs, in.name)
				stream := goCompress(t, c, in.raw, goBlockOpts(c, bs)...)
				require.NoError(t, os.WriteFile(path(base, ".go"), stream, 0o644))
				concat, concatRaw = append(concat, stream...), append(concatRaw, in.raw...)
				jobs = append(jobs, javaJob{op: "write", codec: c.String(), block: javaBlock(c, bs), in: path(in.name, ".raw"), out: path(base, ".java")},
					javaJob{op: "read", codec: c.String(), in: path(base, ".go"), out: path(base, ".go.out")})
				wantJava = append(wantJava, nil, in.raw)
			}
			base := fmt.Sprintf("%v-%d-concat", c, bs)
			require.NoError(t, os.WriteFile(path(base, ".go"), concat, 0o644))
			jobs = append(jobs, javaJob{op: "read", codec: c.String(), in: path(base, ".go"), out: path(base, ".go.out")})
			wantJava = append(wantJava, concatRaw)
		}
		if c != framing.Snappy { // SnappyInputStream refuses 0 bytes ("Cannot decompress empty stream")
			require.NoError(t, os.WriteFile(path(c, "-zero.go"), nil, 0o644))
			jobs = append(jobs, javaJob{op: "read", codec: c.String(), in: path(c, "-zero.go"), out: path(c, "-zero.go.out")})
			wantJava = append(wantJava, nil)
		}
	}
	results := runJava(t, java, classpath, dir, jobs)
	for i, j := range jobs {
		require.Equal(t, "ok", results[i], "java %s %s %s", j.op, j.codec, filepath.Base(j.in))
		if j.op == "read" {
			got, err := os.ReadFile(j.out)
			require.NoError(t, err)
			require.True(t, bytes.Equal(wantJava[i], got), "java read of Go's %s: %d bytes, want %d", filepath.Base(j.in), len(got), len(wantJava[i]))
		}
	}
	for _, c := range codecs {
		for _, bs := range sparkBlockSizes {
			t.Run(fmt.Sprintf("%v/block=%d", c, bs), func(t *testing.T) {
				var concat, concatRaw []byte
				for _, in := range inputs {
					base := fmt.Sprintf("%v-%d-%s", c, bs, in.name)
					javaStream, err := os.ReadFile(path(base, ".java"))
					require.NoError(t, err)
					goStream, err := os.ReadFile(path(base, ".go"))
					require.NoError(t, err)
					require.True(t, bytes.Equal(in.raw, goDecompress(t, c, javaStream)), "%s: Go's decoding of Java's stream", in.name)
					require.True(t, bytes.Equal(in.raw, goDecompress(t, framing.Auto, javaStream)) || len(in.raw) == 0, "%s: auto", in.name)
					sameStructure(t, c, bs, javaStream, goStream, in.name)
					concat, concatRaw = append(concat, javaStream...), append(concatRaw, in.raw...)
					if in.rows != nil {
						requireRows(t, javaStream, c, in.rows)
						requireRows(t, javaStream, framing.Auto, in.rows)
					}
				}
				require.True(t, bytes.Equal(concatRaw, goDecompress(t, c, concat)), "Java's streams concatenated")
			})
		}
	}
	t.Run("collected", func(t *testing.T) {
		// Rows, -1, and more of the same: getByteArrayRdd's output, twice.
		in := inputs[1]
		stream, err := os.ReadFile(path("lz4-32768-collected.java"))
		require.NoError(t, err)
		want := splitRecords(t, in.raw[:len(in.raw)-4])
		requireRows(t, stream, framing.LZ4, want)
		requireRows(t, append(bytes.Clone(stream), stream...), framing.LZ4, append(append([][]byte{}, want...), want...))
	})
	t.Run("empty", func(t *testing.T) {
		// An empty stream is the 21-byte end mark for lz4, the 16-byte
		// header for snappy, nothing for lzf, and 0 bytes for zstd-jni 1.5.2
		// (later versions write an empty frame, as Go does).
		for _, c := range codecs {
			javaStream, err := os.ReadFile(path(c, "-32768-empty.java"))
			require.NoError(t, err)
			goStream, err := os.ReadFile(path(c, "-32768-empty.go"))
			require.NoError(t, err)
			if c == framing.Zstd {
				// Debian 12's 1.5.2-5 writes 0 bytes; a later zstd-jni, a frame.
				if len(javaStream) > 0 {
					require.Equal(t, []byte{0x28, 0xb5, 0x2f, 0xfd}, javaStream[:4])
				}
				require.Equal(t, []byte{0x28, 0xb5, 0x2f, 0xfd}, goStream[:4], "Go writes an empty frame")
				continue
			}
			require.Equal(t, javaStream, goStream, "%v: the empty stream", c)
		}
	})
}

// requireRows reads stream through the Spark framing with codec c and
// requires exactly rows.
func requireRows(t *testing.T, stream []byte, c framing.Codec, rows [][]byte) {
	t.Helper()
	rd, err := framing.NewReader(bytes.NewReader(stream), framing.Spark, c)
	require.NoError(t, err)
	var got [][]byte
	for {
		batch, err := rd.Next(100)
		for _, row := range batch {
			got = append(got, bytes.Clone(row))
		}
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
	}
	require.Equal(t, len(rows), len(got), "rows through the %v Spark framing", c)
	for i := range rows {
		require.True(t, bytes.Equal(rows[i], got[i]), "row %d through the %v Spark framing", i, c)
	}
}

func splitRecords(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var rows [][]byte
	for len(b) > 0 {
		n := int(binary.BigEndian.Uint32(b))
		rows = append(rows, b[4:4+n])
		b = b[4+n:]
	}
	return rows
}

// sameStructure requires Go's stream to cut the input where Java's does:
// for lz4 the same token level, uncompressed lengths and checksums (the
// payloads differ, two compressors), the same end mark; for snappy the
// same header and chunk lengths before compression; for LZF the same
// chunk lengths. zstd frames are the encoder's business.
func sameStructure(t *testing.T, c framing.Codec, block int, javaStream, goStream []byte, name string) {
	t.Helper()
	switch c {
	case framing.LZ4:
		require.Equal(t, lz4Blocks(t, javaStream), lz4Blocks(t, goStream), "%s: lz4 blocks (token level, uncompressed length, checksum)", name)
		require.Equal(t, javaStream[len(javaStream)-21:], goStream[len(goStream)-21:], "%s: the end mark", name)
	case framing.Snappy:
		require.Equal(t, javaStream[:16], goStream[:16], "%s: the snappy-java header", name)
		require.Equal(t, snappyChunks(t, javaStream), snappyChunks(t, goStream), "%s: snappy chunk lengths", name)
	case framing.LZF:
		if block < 8000 {
			// compress-lzf's BufferRecycler hands LZFOutputStream a buffer
			// of at least 8000 bytes, so it never writes smaller chunks
			// (Spark keeps the 65535 default anyway).
			break
		}
		require.Equal(t, lzfChunks(t, javaStream), lzfChunks(t, goStream), "%s: lzf chunk lengths", name)
	}
}

func lz4Blocks(t *testing.T, b []byte) []string {
	t.Helper()
	var out []string
	for len(b) > 0 {
		require.GreaterOrEqual(t, len(b), 21)
		require.Equal(t, "LZ4Block", string(b[:8]))
		clen := int(binary.LittleEndian.Uint32(b[9:]))
		out = append(out, fmt.Sprintf("level %d, %d bytes, checksum %08x", b[8]&0x0F, binary.LittleEndian.Uint32(b[13:]), binary.LittleEndian.Uint32(b[17:])))
		b = b[21+clen:]
	}
	return out
}

func snappyChunks(t *testing.T, b []byte) []int {
	t.Helper()
	var out []int
	for b = b[16:]; len(b) > 0; {
		n := int(binary.BigEndian.Uint32(b))
		size, err := snappy.DecodedLen(b[4 : 4+n])
		require.NoError(t, err)
		out = append(out, size)
		b = b[4+n:]
	}
	return out
}

func lzfChunks(t *testing.T, b []byte) []int {
	t.Helper()
	var out []int
	for len(b) > 0 {
		require.Equal(t, "ZV", string(b[:2]))
		n := int(binary.BigEndian.Uint16(b[3:]))
		if b[2] == 0 {
			out = append(out, n)
			b = b[5+n:]
			continue
		}
		out = append(out, int(binary.BigEndian.Uint16(b[5:])))
		b = b[7+n:]
	}
	return out
}
