import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FastDecompressor;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The Java side of scripts/bench-shuffle: how long lz4-java takes just to decompress the segments of a
 * Spark shuffle, as Spark's LZ4CompressionCodec.compressedInputStream reads them (LZ4BlockInputStream,
 * LZ4Factory.fastestInstance().fastDecompressor(), XXHashFactory.fastestInstance() streaming XXH32 with
 * seed 0x9747B28C as the checksum, stopOnEmptyBlock=false so concatenated streams read on), before
 * Spark's deserializer sees a single row.
 *
 * <pre>java -cp lz4-java.jar:CLASSES LZ4Decompress WARMUP MEASURED DIR...</pre>
 *
 * It finds every shuffle_*_*_0.index under the DIRs (in any sub-folder, as Spark hashes files across
 * them), loads each map output's data file into memory once, untimed, then makes WARMUP and MEASURED
 * passes over every segment (index offsets i..i+1): a new LZ4BlockInputStream over the segment's
 * bytes, read to its end into one reused 64 KiB buffer, the bytes discarded. It prints one line:
 * segments, compressed and uncompressed bytes of a pass, the median, minimum and maximum wall
 * nanoseconds of the measured passes, and the median and minimum CPU nanoseconds of the decompressing
 * thread (ThreadMXBean; JIT and GC threads not counted), which a loaded machine disturbs less. File
 * reading is not timed, so the figure is decompression alone, in a JVM as warm as WARMUP passes
 * make it.
 */
public final class LZ4Decompress {
  private static final int SEED = 0x9747b28c; // Spark's LZ4CompressionCodec.defaultSeed

  record Segment(byte[] data, int offset, int length) {}

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println("usage: LZ4Decompress WARMUP MEASURED DIR...");
      System.exit(2);
    }
    int warmup = Integer.parseInt(args[0]);
    int measured = Integer.parseInt(args[1]);
    if (warmup < 0 || measured < 1) {
      System.err.println("LZ4Decompress: want WARMUP >= 0 and MEASURED >= 1");
      System.exit(2);
    }
    List<Segment> segments = load(Arrays.copyOfRange(args, 2, args.length));
    long compressed = 0;
    for (Segment s : segments) {
      compressed += s.length();
    }
    LZ4Factory lz4 = LZ4Factory.fastestInstance();
    XXHashFactory xxhash = XXHashFactory.fastestInstance();
    System.err.println("lz4: " + lz4 + ", xxhash: " + xxhash);
    byte[] buf = new byte[64 << 10];
    Passes t =
        Passes.time(
            warmup,
            measured,
            () -> {
              long n = 0;
              for (Segment s : segments) {
                n += decompress(s, lz4.fastDecompressor(), xxhash, buf);
              }
              return n;
            });
    System.out.printf(
        "segments=%d compressed=%d uncompressed=%d passes=%d %s%n", segments.size(), compressed, t.bytes(), measured, t);
  }

  /** One pass over the data: the bytes it produced. */
  interface Pass {
    long run() throws IOException;
  }

  /**
   * WARMUP then MEASURED runs of a pass, each producing the same number of bytes: the measured passes'
   * wall and thread CPU nanoseconds, sorted.
   */
  record Passes(long bytes, long[] wall, long[] cpu) {
    static Passes time(int warmup, int measured, Pass pass) throws IOException {
      long bytes = -1;
      long[] wall = new long[measured];
      long[] cpu = new long[measured];
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      for (int i = 0; i < warmup + measured; i++) {
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long n = pass.run();
        long elapsed = System.nanoTime() - start;
        long cpuTime = threads.getCurrentThreadCpuTime() - cpuStart;
        if (bytes >= 0 && n != bytes) {
          throw new IllegalStateException("pass " + i + " made " + n + " bytes, the first " + bytes);
        }
        bytes = n;
        if (i >= warmup) {
          wall[i - warmup] = elapsed;
          cpu[i - warmup] = cpuTime;
        }
      }
      Arrays.sort(wall);
      Arrays.sort(cpu);
      return new Passes(bytes, wall, cpu);
    }

    /** The figures bench-shuffle reads: median_ns, min_ns, max_ns, median_cpu_ns, min_cpu_ns. */
    @Override
    public String toString() {
      int m = wall.length;
      return String.format(
          "median_ns=%d min_ns=%d max_ns=%d median_cpu_ns=%d min_cpu_ns=%d", wall[m / 2], wall[0], wall[m - 1], cpu[m / 2], cpu[0]);
    }
  }

  private static long decompress(Segment s, LZ4FastDecompressor dec, XXHashFactory xxhash, byte[] buf)
      throws IOException {
    long n = 0;
    try (InputStream in =
        new LZ4BlockInputStream(
            new ByteArrayInputStream(s.data(), s.offset(), s.length()),
            dec,
            xxhash.newStreamingHash32(SEED).asChecksum(),
            false)) {
      for (int r; (r = in.read(buf, 0, buf.length)) > 0; ) {
        n += r;
      }
    }
    return n;
  }

  /** The non-empty segments of every map output under dirs, partition by partition. */
  static List<Segment> load(String[] dirs) throws IOException {
    Map<String, Path> files = new HashMap<>();
    for (String dir : dirs) {
      try (Stream<Path> walk = Files.walk(Path.of(dir))) {
        walk.filter(Files::isRegularFile).forEach(p -> files.put(p.getFileName().toString(), p));
      }
    }
    List<long[]> offsets = new ArrayList<>();
    List<byte[]> data = new ArrayList<>();
    for (Map.Entry<String, Path> e : files.entrySet()) {
      String name = e.getKey();
      if (!name.matches("shuffle_\\d+_\\d+_0\\.index")) {
        continue;
      }
      ByteBuffer index = ByteBuffer.wrap(Files.readAllBytes(e.getValue())); // big-endian
      long[] off = new long[index.remaining() / 8];
      for (int i = 0; i < off.length; i++) {
        off[i] = index.getLong();
      }
      Path dataFile = files.get(name.replace(".index", ".data"));
      byte[] b = dataFile == null ? new byte[0] : Files.readAllBytes(dataFile);
      if (off.length < 1 || off[off.length - 1] != b.length) {
        throw new IOException(e.getValue() + ": the index does not match the data file's " + b.length + " bytes");
      }
      offsets.add(off);
      data.add(b);
    }
    if (offsets.isEmpty()) {
      throw new IOException("no shuffle index under " + String.join(" ", dirs));
    }
    List<Segment> segments = new ArrayList<>();
    int partitions = offsets.get(0).length - 1;
    for (int p = 0; p < partitions; p++) {
      for (int m = 0; m < offsets.size(); m++) {
        long[] off = offsets.get(m);
        if (off[p + 1] > off[p]) {
          segments.add(new Segment(data.get(m), (int) off[p], (int) (off[p + 1] - off[p])));
        }
      }
    }
    return segments;
  }
}
