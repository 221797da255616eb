import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.Adler32;

/**
 * Writes map outputs of Spark's sort-based shuffle as Spark 3.2+ leaves them in a blockmgr-* folder:
 * for each map output shuffle_S_M_0.data (the partitions' segments end to end, each one compressed
 * stream, omitted when every partition is empty), shuffle_S_M_0.index (DataOutputStream.writeLong of
 * the numPartitions+1 offsets, as IndexShuffleBlockResolver writes it) and
 * shuffle_S_M_0.checksum.ADLER32 (writeLong of java.util.zip.Adler32 of each segment's on-disk bytes;
 * an empty segment has a fresh Adler32's value, 1), each file in the sub-folder Spark's
 * DiskBlockManager.getFile picks by the hash of its name. The segments are compressed with
 * SparkCodecs.compress, as CompressionCodec configures the codec (lz4: LZ4BlockOutputStream, 32 KiB
 * blocks, fast compressor, XXH32 seed 0x9747B28C). rowbridge's scripts/make-sample-shuffle runs it to
 * write testdata/sample/shuffle.
 *
 * <p>Usage: java SampleShuffle MANIFEST BLOCKMGR_DIR CODEC BLOCKSIZE. Each manifest line is one map
 * output, tab-separated: the shuffle id, the map id, then for each reduce partition in order a file
 * of its uncompressed records (UnsafeRowSerializer's: a big-endian int32 size, then the UnsafeRow),
 * empty for an empty partition.
 */
public final class SampleShuffle {
  private static final int SUB_DIRS = 64; // spark.diskStore.subDirectories
  private static final int LOCAL_DIRS = 1; // one spark.local.dir entry

  public static void main(String[] args) throws IOException {
    List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    Path blockMgr = Path.of(args[1]);
    String codec = args[2];
    int blockSize = Integer.parseInt(args[3]);
    for (String line : lines) {
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      int shuffle = Integer.parseInt(f[0]);
      long map = Long.parseLong(f[1]);
      int partitions = f.length - 2;
      ByteArrayOutputStream data = new ByteArrayOutputStream();
      long[] offsets = new long[partitions + 1];
      long[] checksums = new long[partitions];
      for (int p = 0; p < partitions; p++) {
        byte[] records = Files.readAllBytes(Path.of(f[2 + p]));
        byte[] segment = new byte[0];
        if (records.length > 0) { // Spark opens a stream only for a partition with records
          ByteArrayOutputStream seg = new ByteArrayOutputStream();
          try (OutputStream s = SparkCodecs.compress(codec, blockSize, seg)) {
            s.write(records);
          }
          segment = seg.toByteArray();
        }
        Adler32 sum = new Adler32();
        sum.update(segment, 0, segment.length);
        checksums[p] = sum.getValue();
        data.write(segment);
        offsets[p + 1] = data.size();
      }
      String base = "shuffle_" + shuffle + "_" + map + "_0";
      if (data.size() > 0) {
        Files.write(place(blockMgr, base + ".data"), data.toByteArray());
      }
      Files.write(place(blockMgr, base + ".index"), longs(offsets));
      Files.write(place(blockMgr, base + ".checksum.ADLER32"), longs(checksums));
    }
  }

  /** DiskBlockManager.getFile: the sub-folder by Utils.nonNegativeHash of the name, created on use. */
  static Path place(Path blockMgr, String name) throws IOException {
    int h = name.hashCode();
    h = h == Integer.MIN_VALUE ? 0 : Math.abs(h);
    int subDir = (h / LOCAL_DIRS) % SUB_DIRS;
    Path dir = blockMgr.resolve(String.format("%02x", subDir));
    Files.createDirectories(dir);
    return dir.resolve(name);
  }

  static byte[] longs(long[] values) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(b)) {
      for (long v : values) {
        out.writeLong(v);
      }
    }
    return b.toByteArray();
  }
}
