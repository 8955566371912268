package io.lancetrino.metadata.refs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

final class TestRefNames
{
    @Test
    void testTags()
    {
        assertThat(RefNames.isValidTag("gold")).isTrue();
        assertThat(RefNames.isValidTag("v1.2_rc-3")).isTrue();
        assertThat(RefNames.isValidTag("größe")).isTrue();
        assertThat(RefNames.isValidTag("")).isFalse();
        assertThat(RefNames.isValidTag("../branches/dev")).isFalse();
        assertThat(RefNames.isValidTag("a/b")).isFalse();
        assertThat(RefNames.isValidTag(".hidden")).isFalse();
        assertThat(RefNames.isValidTag("x.lock")).isFalse();
    }

    @Test
    void testBranches()
    {
        assertThat(RefNames.isValidBranch("dev")).isTrue();
        assertThat(RefNames.isValidBranch("feat/x")).isTrue();
        assertThat(RefNames.isValidBranch("main")).isFalse();
        assertThat(RefNames.isValidBranch("/dev")).isFalse();
        assertThat(RefNames.isValidBranch("dev/")).isFalse();
        assertThat(RefNames.isValidBranch("a//b")).isFalse();
        assertThat(RefNames.isValidBranch("../x")).isFalse();
        assertThat(RefNames.isValidBranch("a b")).isFalse();
    }
}
