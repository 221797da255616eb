import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import com.ning.compress.BufferRecycler;
import com.ning.compress.lzf.LZFInputStream;
import com.ning.compress.lzf.LZFOutputStream;
import com.ning.compress.lzf.util.ChunkEncoderFactory;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;
import org.xerial.snappy.SnappyInputStream;
import org.xerial.snappy.SnappyOutputStream;

/**
 * Builds and reads Spark's compression streams with the Java libraries Spark uses, configured as
 * org.apache.spark.io.CompressionCodec configures them (Spark 3.x/4.x). Used by rowbridge's interop
 * tests as the reference.
 *
 * <p>Usage: java SparkCodecs MANIFEST. Each manifest line is a job, tab-separated:
 *
 * <pre>
 *   write CODEC BLOCKSIZE IN OUT   compress file IN as one stream into OUT
 *   read  CODEC IN OUT             decompress file IN (possibly several streams back to back) into OUT
 * </pre>
 *
 * CODEC is lz4, snappy, zstd or lzf; BLOCKSIZE is spark.io.compression.lz4.blockSize, .snappy.blockSize,
 * .zstd.bufferSize, or for lzf the LZFOutputStream buffer (Spark leaves it at 65535). For each job it
 * prints "ok" or "error MESSAGE" on a line of its own, so one JVM serves a whole test group.
 */
public final class SparkCodecs {
  private static final int LZ4_SEED = 0x9747b28c; // Spark's LZ4CompressionCodec.defaultSeed

  public static void main(String[] args) throws IOException {
    List<String> jobs = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    System.err.println("lz4: " + LZ4Factory.fastestInstance() + ", xxhash: " + XXHashFactory.fastestInstance());
    for (String job : jobs) {
      if (job.isEmpty()) {
        continue;
      }
      String[] f = job.split("\t");
      try {
        if (f[0].equals("write")) {
          byte[] in = Files.readAllBytes(Path.of(f[3]));
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          try (OutputStream s = compress(f[1], Integer.parseInt(f[2]), out)) {
            // Spark's serializer writes a record at a time; the stream buffers to its block size.
            for (int off = 0; off < in.length; off += 4099) {
              s.write(in, off, Math.min(4099, in.length - off));
            }
          }
          Files.write(Path.of(f[4]), out.toByteArray());
        } else if (f[0].equals("read")) {
          try (InputStream s = decompress(f[1], Files.newInputStream(Path.of(f[2])))) {
            Files.write(Path.of(f[3]), s.readAllBytes());
          }
        } else {
          throw new IllegalArgumentException("unknown job " + f[0]);
        }
        System.out.println("ok");
      } catch (Exception e) {
        System.out.println("error " + e.toString().replace('\n', ' '));
      }
    }
  }

  /** What CompressionCodec.compressedOutputStream returns for each codec. */
  static OutputStream compress(String codec, int blockSize, OutputStream s) throws IOException {
    switch (codec) {
      case "lz4":
        return new LZ4BlockOutputStream(
            s,
            blockSize,
            LZ4Factory.fastestInstance().fastCompressor(),
            XXHashFactory.fastestInstance().newStreamingHash32(LZ4_SEED).asChecksum(),
            false);
      case "snappy":
        return new SnappyOutputStream(s, blockSize);
      case "zstd":
        return new BufferedOutputStream(
            new ZstdOutputStreamNoFinalizer(s, RecyclingBufferPool.INSTANCE).setLevel(1).setWorkers(0),
            blockSize);
      case "lzf":
        return new LZFOutputStream(ChunkEncoderFactory.optimalInstance(), s, blockSize, BufferRecycler.instance())
            .setFinishBlockOnFlush(true);
      default:
        throw new IllegalArgumentException("unknown codec " + codec);
    }
  }

  /** What CompressionCodec.compressedInputStream returns for each codec. */
  static InputStream decompress(String codec, InputStream s) throws IOException {
    switch (codec) {
      case "lz4":
        // disableConcatenationOfByteStream = false: read on past end marks, as Spark does.
        return new LZ4BlockInputStream(
            s,
            LZ4Factory.fastestInstance().fastDecompressor(),
            XXHashFactory.fastestInstance().newStreamingHash32(LZ4_SEED).asChecksum(),
            false);
      case "snappy":
        return new SnappyInputStream(s);
      case "zstd":
        return new BufferedInputStream(new ZstdInputStreamNoFinalizer(s, RecyclingBufferPool.INSTANCE), 32 << 10);
      case "lzf":
        return new LZFInputStream(s);
      default:
        throw new IllegalArgumentException("unknown codec " + codec);
    }
  }
}
