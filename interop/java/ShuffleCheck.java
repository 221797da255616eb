import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * Reads a map output as a Spark reducer and Spark's shuffle checksum diagnosis would: checks the
 * index (numPartitions+1 big-endian longs, the first 0, never decreasing, the last the data file's
 * size, as IndexShuffleBlockResolver.checkIndexAndDataFile does), checks the checksum file (one
 * big-endian long per partition, each java.util.zip's Adler32, CRC32 or CRC32C of the segment's
 * on-disk bytes), decompresses every non-empty segment with SparkCodecs.decompress (the input stream
 * CompressionCodec.compressedInputStream builds; "none" reads the bytes as they are) and splits the
 * result into UnsafeRowSerializer records (a big-endian int32 size, then the row). Used by
 * rowbridge's interop tests to check what rowbridge writes.
 *
 * <p>Usage: java ShuffleCheck MANIFEST. Each manifest line is a map output, tab-separated:
 *
 * <pre>
 *   CODEC ALGORITHM INDEX DATA CHECKSUM OUT
 * </pre>
 *
 * CODEC is lz4, snappy, zstd, lzf or none; ALGORITHM is ADLER32, CRC32, CRC32C or none; DATA and
 * CHECKSUM are "-" for a file that must not exist. For each partition P it writes the decompressed
 * records to OUT.P and prints one line per map output: "ok ROWS0,ROWS1,..." (records per partition)
 * or "error MESSAGE".
 */
public final class ShuffleCheck {
  public static void main(String[] args) throws IOException {
    List<String> jobs = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    for (String job : jobs) {
      if (job.isEmpty()) {
        continue;
      }
      String[] f = job.split("\t");
      try {
        System.out.println("ok " + check(f[0], f[1], f[2], f[3], f[4], f[5]));
      } catch (Exception e) {
        System.out.println("error " + e.toString().replace('\n', ' '));
      }
    }
  }

  static String check(String codec, String algorithm, String index, String data, String checksum, String out)
      throws IOException {
    long[] offsets = longs(Files.readAllBytes(Path.of(index)));
    if (offsets.length < 1 || offsets[0] != 0) {
      throw new IOException("index: " + offsets.length + " offsets, the first " + (offsets.length > 0 ? offsets[0] : -1));
    }
    for (int i = 1; i < offsets.length; i++) {
      if (offsets[i] < offsets[i - 1]) {
        throw new IOException("index: offset " + i + " is " + offsets[i] + ", below " + offsets[i - 1]);
      }
    }
    int partitions = offsets.length - 1;
    byte[] bytes = new byte[0];
    if (data.equals("-")) {
      if (offsets[partitions] != 0) {
        throw new IOException("no data file, but the index ends at " + offsets[partitions]);
      }
    } else {
      bytes = Files.readAllBytes(Path.of(data));
      if (bytes.length == 0) {
        throw new IOException("an empty data file (Spark writes none)");
      }
    }
    if (offsets[partitions] != bytes.length) {
      throw new IOException("index ends at " + offsets[partitions] + ", data file has " + bytes.length + " bytes");
    }
    long[] sums = null;
    if (!checksum.equals("-")) {
      sums = longs(Files.readAllBytes(Path.of(checksum)));
      if (sums.length != partitions) {
        throw new IOException("checksum file holds " + sums.length + " values for " + partitions + " partitions");
      }
    }
    StringBuilder rows = new StringBuilder();
    for (int p = 0; p < partitions; p++) {
      byte[] segment = Arrays.copyOfRange(bytes, (int) offsets[p], (int) offsets[p + 1]);
      if (sums != null) {
        Checksum c = newChecksum(algorithm);
        c.update(segment, 0, segment.length);
        if (c.getValue() != sums[p]) {
          throw new IOException("partition " + p + ": " + algorithm + " " + c.getValue() + ", checksum file " + sums[p]);
        }
      }
      byte[] records = new byte[0];
      if (segment.length > 0) { // a reducer skips empty blocks; SnappyInputStream refuses 0 bytes
        InputStream in = new ByteArrayInputStream(segment);
        try (InputStream s = codec.equals("none") ? in : SparkCodecs.decompress(codec, in)) {
          records = s.readAllBytes();
        }
      }
      Files.write(Path.of(out + "." + p), records);
      rows.append(p == 0 ? "" : ",").append(countRecords(records, p));
    }
    return rows.toString();
  }

  /** What ShuffleChecksumHelper.getChecksumByAlgorithm returns. */
  static Checksum newChecksum(String algorithm) {
    switch (algorithm) {
      case "ADLER32":
        return new Adler32();
      case "CRC32":
        return new CRC32();
      case "CRC32C":
        return new CRC32C();
      default:
        throw new IllegalArgumentException("unknown checksum algorithm " + algorithm);
    }
  }

  /** The records of a deserialization stream, as UnsafeRowSerializer reads them. */
  static int countRecords(byte[] records, int partition) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(records));
    int n = 0;
    while (true) {
      int size;
      try {
        size = in.readInt();
      } catch (EOFException e) {
        return n;
      }
      if (size < 0 || size % 8 != 0 || in.skipBytes(size) != size) {
        throw new IOException("partition " + partition + ", record " + n + ": bad size " + size);
      }
      n++;
    }
  }

  static long[] longs(byte[] b) throws IOException {
    if (b.length % 8 != 0) {
      throw new IOException(b.length + " bytes is no whole number of longs");
    }
    long[] v = new long[b.length / 8];
    ByteBuffer.wrap(b).asLongBuffer().get(v);
    return v;
  }
}
