package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.fs.LocalTableFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

final class TestWriterAttemptFiles
{
    @Test
    void testRemovesOnlyTheWritersUnreferencedFiles(@TempDir Path table)
            throws Exception
    {
        Path data = Files.createDirectories(table.resolve("data"));
        String committed = WriterAttemptFiles.name("0101a", "20261203_q1");
        String lostAttempt = WriterAttemptFiles.name("0110b", "20261203_q1");
        String otherQuery = WriterAttemptFiles.name("0111c", "20261203_q2");
        // written by another engine, or before files carried the writer's id
        String foreign = "1010d.lance";
        // a query id that ends like another's must not match it
        String suffixAlike = WriterAttemptFiles.name("0000e", "x20261203_q1");
        for (String name : new String[] {committed, lostAttempt, otherQuery, foreign, suffixAlike}) {
            Files.write(data.resolve(name), new byte[] {1});
        }

        assertThat(WriterAttemptFiles.removeUnreferenced(new LocalTableFileSystem(), data.toString(), "20261203_q1", Set.of(committed)))
                .containsExactly(lostAttempt);
        try (Stream<Path> files = Files.list(data)) {
            assertThat(files.map(file -> file.getFileName().toString()).collect(Collectors.toSet()))
                    .containsExactlyInAnyOrder(committed, otherQuery, foreign, suffixAlike);
        }
        // nothing to do when the directory does not exist (a write that produced no file)
        assertThat(WriterAttemptFiles.removeUnreferenced(new LocalTableFileSystem(), table.resolve("none").toString(), "20261203_q1", Set.of())).isEmpty();
    }
}
