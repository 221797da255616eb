import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The Java side of the write half of scripts/bench-shuffle: how long lz4-java takes just to compress
 * the rows of a map output, as Spark's LZ4CompressionCodec.compressedOutputStream writes each
 * partition's segment (LZ4BlockOutputStream of spark.io.compression.lz4.blockSize = 32 KiB,
 * LZ4Factory.fastestInstance().fastCompressor(), XXHashFactory.fastestInstance() streaming XXH32 with
 * seed 0x9747B28C as the checksum, syncFlush=false).
 *
 * <pre>java -cp lz4-java.jar:CLASSES LZ4Compress WARMUP MEASURED DIR...</pre>
 *
 * It finds the map outputs under the DIRs as LZ4Decompress does (there: the map output rowbridge
 * wrote), decompresses every segment once, untimed, to have the framed row bytes of each partition
 * in memory, then makes WARMUP and MEASURED passes: each segment's bytes written in one call to a new
 * LZ4BlockOutputStream over one reused in-memory buffer, and closed (which writes the end mark). It
 * prints one line: segments, uncompressed and compressed bytes of a pass, the median, minimum and
 * maximum wall nanoseconds of the measured passes, and the median and minimum CPU nanoseconds of the
 * compressing thread. Neither reading the input nor writing a file is timed: the figure is
 * compression alone, in a JVM as warm as WARMUP passes make it.
 */
public final class LZ4Compress {
  private static final int SEED = 0x9747b28c; // Spark's LZ4CompressionCodec.defaultSeed
  private static final int BLOCK_SIZE = 32 << 10; // spark.io.compression.lz4.blockSize

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println("usage: LZ4Compress WARMUP MEASURED DIR...");
      System.exit(2);
    }
    int warmup = Integer.parseInt(args[0]);
    int measured = Integer.parseInt(args[1]);
    if (warmup < 0 || measured < 1) {
      System.err.println("LZ4Compress: want WARMUP >= 0 and MEASURED >= 1");
      System.exit(2);
    }
    LZ4Factory lz4 = LZ4Factory.fastestInstance();
    XXHashFactory xxhash = XXHashFactory.fastestInstance();
    System.err.println("lz4: " + lz4 + ", xxhash: " + xxhash);
    List<byte[]> records = new ArrayList<>();
    long uncompressed = 0;
    for (LZ4Decompress.Segment s : LZ4Decompress.load(Arrays.copyOfRange(args, 2, args.length))) {
      ByteArrayOutputStream rows = new ByteArrayOutputStream();
      try (InputStream in =
          new LZ4BlockInputStream(
              new ByteArrayInputStream(s.data(), s.offset(), s.length()),
              lz4.fastDecompressor(),
              xxhash.newStreamingHash32(SEED).asChecksum(),
              false)) {
        in.transferTo(rows);
      }
      records.add(rows.toByteArray());
      uncompressed += rows.size();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(BLOCK_SIZE << 10);
    LZ4Decompress.Passes t =
        LZ4Decompress.Passes.time(
            warmup,
            measured,
            () -> {
              long n = 0;
              for (byte[] r : records) {
                out.reset();
                try (OutputStream lz =
                    new LZ4BlockOutputStream(
                        out, BLOCK_SIZE, lz4.fastCompressor(), xxhash.newStreamingHash32(SEED).asChecksum(), false)) {
                  lz.write(r);
                }
                n += out.size();
              }
              return n;
            });
    System.out.printf(
        "segments=%d uncompressed=%d compressed=%d passes=%d %s%n", records.size(), uncompressed, t.bytes(), measured, t);
  }
}
