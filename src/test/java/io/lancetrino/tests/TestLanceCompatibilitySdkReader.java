package io.lancetrino.tests;

/**
 * The compatibility tests again with {@code lance.file-reader = sdk}: the SDK path stays a full reader, as the escape
 * hatch and the fallback the Java reader relies on.
 */
final class TestLanceCompatibilitySdkReader
        extends TestLanceCompatibility
{
    @Override
    protected String fileReader()
    {
        return "sdk";
    }
}
