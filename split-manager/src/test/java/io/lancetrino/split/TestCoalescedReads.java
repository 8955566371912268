package io.lancetrino.split;

import io.airlift.slice.Slice;
import io.trino.filesystem.local.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

final class TestCoalescedReads
{
    @Test
    void testNearbyBuffersAreReadTogether(@TempDir Path directory)
            throws Exception
    {
        byte[] bytes = new byte[40 << 20];
        new Random(3).nextBytes(bytes);
        Path path = directory.resolve("data.lance");
        Files.write(path, bytes);

        try (CoalescedReads reads = new CoalescedReads(new LocalInputFile(path.toFile()))) {
            // three buffers close together, one 2 MiB further (past the 1 MiB gap), one beyond the 16 MiB read bound
            long[][] buffers = {{0, 1000}, {1008, 5000}, {500_000, 70_000}, {2_700_000, 4096}, {20_000_000, 100}};
            for (long[] buffer : buffers) {
                reads.plan(buffer[0], buffer[1]);
            }
            assertThat(reads.take(7, 10)).as("not planned").isEmpty();
            for (long[] buffer : new long[][] {buffers[1], buffers[0], buffers[2], buffers[3], buffers[4]}) {
                Optional<Slice> slice = reads.take(buffer[0], (int) buffer[1]);
                assertThat(slice).isPresent();
                assertThat(slice.get().getBytes()).isEqualTo(Arrays.copyOfRange(bytes, (int) buffer[0], (int) (buffer[0] + buffer[1])));
            }
            assertThat(reads.readCount()).isEqualTo(3);
            assertThat(reads.readBytes()).isEqualTo(570_000 + 4096 + 100);
            // each buffer is handed out once; the readers cache what they read again
            assertThat(reads.take(0, 1000)).isEmpty();
            assertThat(reads.retainedBytes()).isZero();
        }
    }

    @Test
    void testBuffersReadAheadAreHeldUntilTaken(@TempDir Path directory)
            throws Exception
    {
        Path path = directory.resolve("data.lance");
        Files.write(path, new byte[1 << 20]);
        try (CoalescedReads reads = new CoalescedReads(new LocalInputFile(path.toFile()))) {
            reads.plan(0, 100);
            reads.plan(200, 300);
            reads.plan(600, 50);
            assertThat(reads.take(200, 300)).isPresent();
            assertThat(reads.retainedBytes()).isEqualTo(150);
            assertThat(reads.take(600, 50)).isPresent();
            assertThat(reads.retainedBytes()).isEqualTo(100);
            assertThat(reads.readCount()).isEqualTo(1);
        }
    }
}
