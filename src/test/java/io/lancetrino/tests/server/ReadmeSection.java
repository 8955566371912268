package io.lancetrino.tests.server;

import com.google.common.collect.ImmutableList;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The fenced code blocks of one section of the README or a manual page, so a test can run the instructions users read,
 * word for word.
 */
public record ReadmeSection(String heading, List<String> codeBlocks)
{
    public ReadmeSection
    {
        codeBlocks = ImmutableList.copyOf(codeBlocks);
    }

    public static ReadmeSection read(Path readme, String heading)
            throws IOException
    {
        List<String> lines = Files.readAllLines(readme);
        int start = lines.indexOf(heading);
        checkArgument(start >= 0, "%s has no line '%s'", readme, heading);
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        ImmutableList.Builder<String> blocks = ImmutableList.builder();
        StringBuilder block = null;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (block == null && line.startsWith("#") && line.startsWith(level) && !line.startsWith(level.trim() + "#")) {
                break;
            }
            if (line.startsWith("```")) {
                if (block == null) {
                    block = new StringBuilder();
                }
                else {
                    blocks.add(block.toString());
                    block = null;
                }
            }
            else if (block != null) {
                block.append(line).append('\n');
            }
        }
        return new ReadmeSection(heading, blocks.build());
    }

    /**
     * The first code block of the section that contains {@code text}.
     */
    public String blockContaining(String text)
    {
        return codeBlocks.stream()
                .filter(block -> block.contains(text))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No code block of README section '" + heading + "' contains '" + text + "'"));
    }
}
