package io.lancetrino.metadata.refs;

import io.lancetrino.metadata.fs.LocalTableFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

final class TestRefStore
{
    @Test
    void testBranchRefsInBothKeyLayouts(@TempDir Path dir)
            throws Exception
    {
        RefStore refs = new RefStore(new LocalTableFileSystem(), dir.toString());
        refs.createBranch(new BranchRef("feat/x", Optional.empty(), 2, Optional.of(Instant.ofEpochSecond(1_700_000_000)), List.of(new BranchRef.VersionMapping(2, "a".repeat(32))), 460, Map.of()));
        assertThat(dir.resolve("_refs/branches/feat%2Fx.json")).exists();
        // object-store adapters that show %2F as a directory
        Files.createDirectories(dir.resolve("_refs/branches/team"));
        Files.writeString(dir.resolve("_refs/branches/team/y.json"), "{\"parentBranch\":null,\"parentVersion\":3,\"createAt\":1700000000,\"manifestSize\":1}");
        assertThat(refs.listBranches()).extracting(BranchRef::name).containsExactly("feat/x", "team/y");
        assertThat(refs.getBranch("team/y").orElseThrow().parentVersion()).isEqualTo(3);
        BranchRef read = refs.getBranch("feat/x").orElseThrow();
        assertThat(read.lineage()).containsExactly(new BranchRef.VersionMapping(2, "a".repeat(32)));
        assertThat(read.createdAt()).hasValue(Instant.ofEpochSecond(1_700_000_000));
        refs.deleteBranch("team/y");
        assertThat(refs.listBranches()).extracting(BranchRef::name).containsExactly("feat/x");
    }
}
